// Stand-in for the parts of Security (Certificate, Key, and Trust Services) that certificate pinning uses (see
// ../README.md). Not Apple's code: declarations only. Core Foundation's types are given as the Foundation classes they
// bridge to, as in SecItem.swift.
@_exported import Foundation

/// https://developer.apple.com/documentation/corefoundation/cfarray (toll-free bridged with `NSArray`)
public typealias CFArray = NSArray
/// https://developer.apple.com/documentation/corefoundation/cfdata (toll-free bridged with `NSData`)
public typealias CFData = NSData
/// https://developer.apple.com/documentation/corefoundation/cferror (toll-free bridged with `NSError`)
public typealias CFError = NSError

/// https://developer.apple.com/documentation/security/sectrust — `class SecTrust`
public final class SecTrust {}
/// https://developer.apple.com/documentation/security/seccertificate — `class SecCertificate`
public final class SecCertificate {}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// https://developer.apple.com/documentation/security/sectrustevaluatewitherror(_:_:) —
/// `func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool`
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool { false }

// swift-format-ignore: AlwaysUseLowerCamelCase
/// https://developer.apple.com/documentation/security/sectrustcopycertificatechain(_:) —
/// `func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray?`
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? { nil }

// swift-format-ignore: AlwaysUseLowerCamelCase
/// https://developer.apple.com/documentation/security/seccertificatecopydata(_:) —
/// `func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData`
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData { NSData() }
