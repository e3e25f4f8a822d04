// Stand-in for the parts of CryptoKit that Limen uses (see ../README.md). Not Apple's code: declarations only.
// swift-crypto's Crypto module re-exports CryptoKit on Apple platforms, so that `P256` there is CryptoKit's own: here
// CryptoKit re-exports Crypto, so that `P256` is the same type in both spellings, as it is on Apple's.
@_exported import Crypto
import Foundation

/// https://developer.apple.com/documentation/cryptokit/secureenclave — `enum SecureEnclave`
public enum SecureEnclave {
    /// https://developer.apple.com/documentation/cryptokit/secureenclave/isavailable —
    /// `static var isAvailable: Bool { get }`
    public static var isAvailable: Bool { false }

    /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256 — `enum P256`
    public enum P256 {
        /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing — `enum Signing` (Sendable)
        public enum Signing: Sendable {
            /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey —
            /// `struct PrivateKey`
            public struct PrivateKey {
                /// …/privatekey/init(compactrepresentable:accesscontrol:authenticationcontext:) — every argument has
                /// a default (the access control `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`).
                public init(compactRepresentable: Bool = true) throws {
                    fatalError("stand-in")
                }

                /// …/privatekey/init(datarepresentation:authenticationcontext:) —
                /// `init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws`
                public init(dataRepresentation: Data) throws {
                    fatalError("stand-in")
                }

                /// …/privatekey/publickey — `var publicKey: P256.Signing.PublicKey { get }`
                public var publicKey: Crypto.P256.Signing.PublicKey { fatalError("stand-in") }

                /// …/privatekey/datarepresentation — `var dataRepresentation: Data { get }`
                public var dataRepresentation: Data { fatalError("stand-in") }

                /// …/privatekey/signature(for:) —
                /// `func signature<D>(for data: D) throws -> P256.Signing.ECDSASignature where D : DataProtocol`
                public func signature<D: DataProtocol>(for data: D) throws -> Crypto.P256.Signing.ECDSASignature {
                    fatalError("stand-in")
                }
            }
        }
    }
}
