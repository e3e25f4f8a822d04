// Stand-in for Darwin's notify(3) API, the `notify` module of Apple's SDKs (see ../README.md). Not Apple's code:
// declarations only. https://developer.apple.com/documentation/darwinnotify/darwin-notification-api
import Dispatch

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// https://developer.apple.com/documentation/darwinnotify/notify_handler_t —
/// `typealias notify_handler_t = (Int32) -> Void`
public typealias notify_handler_t = (Int32) -> Void

// swift-format-ignore: AlwaysUseLowerCamelCase
/// https://developer.apple.com/documentation/darwinnotify/notify_status_ok — `var NOTIFY_STATUS_OK: Int32 { get }`
public var NOTIFY_STATUS_OK: Int32 { 0 }

// swift-format-ignore: AlwaysUseLowerCamelCase
/// https://developer.apple.com/documentation/darwinnotify/notify_post(_:) —
/// `func notify_post(_ name: UnsafePointer<CChar>!) -> UInt32`
public func notify_post(_ name: UnsafePointer<CChar>!) -> UInt32 { 0 }

// swift-format-ignore: AlwaysUseLowerCamelCase
/// https://developer.apple.com/documentation/darwinnotify/notify_register_dispatch(_:_:_:_:) —
/// `func notify_register_dispatch(_ name: UnsafePointer<CChar>!, _ out_token: UnsafeMutablePointer<Int32>!,
/// _ queue: dispatch_queue_t!, _ handler: notify_handler_t!) -> UInt32`
public func notify_register_dispatch(
    _ name: UnsafePointer<CChar>!,
    _ out_token: UnsafeMutablePointer<Int32>!,
    _ queue: DispatchQueue!,
    _ handler: notify_handler_t!
) -> UInt32 { 0 }

// swift-format-ignore: AlwaysUseLowerCamelCase
/// https://developer.apple.com/documentation/darwinnotify/notify_cancel(_:) — `func notify_cancel(_ token: Int32) -> UInt32`
public func notify_cancel(_ token: Int32) -> UInt32 { 0 }
