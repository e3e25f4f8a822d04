// Stand-in for the parts of AuthenticationServices that Limen uses (see ../README.md). Not Apple's code: declarations
// only, written for an iOS build (UIKit's window as the presentation anchor).
@_exported import Foundation
import UIKit

/// https://developer.apple.com/documentation/authenticationservices/aspresentationanchor —
/// `typealias ASPresentationAnchor = UIWindow` (iOS, Mac Catalyst, tvOS, visionOS; `NSWindow` on macOS).
public typealias ASPresentationAnchor = UIWindow
