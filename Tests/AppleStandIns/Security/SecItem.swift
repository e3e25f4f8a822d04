// Stand-in for the parts of Security (Keychain Services) that Limen uses (see ../README.md). Not Apple's code:
// declarations only. Core Foundation's types, which Security re-exports on Apple platforms, are given as the Foundation
// classes they bridge to, since Linux's Foundation does not export Core Foundation.
@_exported import Foundation

/// https://developer.apple.com/documentation/corefoundation/cfstring (toll-free bridged with `NSString`)
public typealias CFString = NSString
/// https://developer.apple.com/documentation/corefoundation/cfdictionary (toll-free bridged with `NSDictionary`)
public typealias CFDictionary = NSDictionary
/// https://developer.apple.com/documentation/corefoundation/cftyperef — `typealias CFTypeRef = AnyObject`
public typealias CFTypeRef = AnyObject
/// https://developer.apple.com/documentation/kernel/osstatus — `typealias OSStatus = Int32`
public typealias OSStatus = Int32

/// https://developer.apple.com/documentation/security/errsecsuccess — `var errSecSuccess: OSStatus { get }`
public var errSecSuccess: OSStatus { 0 }
/// https://developer.apple.com/documentation/security/errsecitemnotfound
public var errSecItemNotFound: OSStatus { -25300 }
/// https://developer.apple.com/documentation/security/errsecmissingentitlement
public var errSecMissingEntitlement: OSStatus { -34018 }

// swift-format-ignore: AlwaysUseLowerCamelCase
/// https://developer.apple.com/documentation/security/secitemcopymatching(_:_:) —
/// `func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus`
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
/// https://developer.apple.com/documentation/security/secitemadd(_:_:) —
/// `func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus`
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
/// https://developer.apple.com/documentation/security/secitemupdate(_:_:) —
/// `func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus`
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
/// https://developer.apple.com/documentation/security/secitemdelete(_:) —
/// `func SecItemDelete(_ query: CFDictionary) -> OSStatus`
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { 0 }

// Item attribute keys and values (https://developer.apple.com/documentation/security/item-attribute-keys-and-values)
// and search and return keys (https://developer.apple.com/documentation/security/item-return-result-keys), each
// `let kSec…: CFString`.
public let kSecClass: CFString = "class"
public let kSecClassGenericPassword: CFString = "genp"
public let kSecAttrService: CFString = "svce"
public let kSecAttrAccount: CFString = "acct"
public let kSecAttrAccessGroup: CFString = "agrp"
public let kSecAttrSynchronizable: CFString = "sync"
public let kSecAttrAccessible: CFString = "pdmn"
public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"
public let kSecUseDataProtectionKeychain: CFString = "nleg"
public let kSecValueData: CFString = "v_Data"
public let kSecReturnData: CFString = "r_Data"
public let kSecReturnAttributes: CFString = "r_Attributes"
public let kSecMatchLimit: CFString = "m_Limit"
public let kSecMatchLimitOne: CFString = "m_LimitOne"
public let kSecMatchLimitAll: CFString = "m_LimitAll"
