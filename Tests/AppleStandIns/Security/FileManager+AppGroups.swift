// Stand-in (see ../README.md). Not Apple's code: a declaration only.
//
// Foundation declares this on Apple platforms; Linux's Foundation lacks it, so the stand-in Security module (which
// re-exports Foundation, as the real one does) supplies it where the Apple-only files see it.
import Foundation

extension FileManager {
    /// https://developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)
    /// — `func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL?`
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? { nil }
}
