import Foundation

extension AppleIDCredential {
    /// The credential from the fields of Apple's `ASAuthorizationAppleIDCredential`: the platform-independent part of
    /// `LimenApple`'s Sign in with Apple sheet, tested on Linux.
    ///
    /// - Parameters:
    ///   - user: `user`.
    ///   - identityToken: `identityToken`, the JWT's UTF-8 bytes.
    ///   - authorizationCode: `authorizationCode`, UTF-8 bytes; dropped when they are not UTF-8.
    ///   - email: `email`.
    ///   - fullName: `fullName`; Apple gives one only at the first sign-in, and often an empty one after. Written by
    ///     ``displayName(_:)``.
    /// - Returns: ``UserAgentError/presentationFailed(_:)`` without an identity token or with one that is not UTF-8.
    package static func fromAuthorization(
        user: String,
        identityToken: Data?,
        authorizationCode: Data?,
        email: String?,
        fullName: PersonNameComponents?
    ) -> Result<AppleIDCredential, UserAgentError> {
        guard let identityToken, let token = String(bytes: identityToken, encoding: .utf8), !token.isEmpty else {
            return .failure(.presentationFailed("Apple gave no identity token"))
        }
        return .success(
            AppleIDCredential(
                user: user,
                identityToken: token,
                authorizationCode: authorizationCode.flatMap { String(bytes: $0, encoding: .utf8) },
                email: email?.isEmpty == false ? email : nil,
                fullName: fullName.flatMap(displayName)
            ))
    }

    /// `components` as one name: family name first and without spaces when it is written in Han, kana or Hangul (山田太郎),
    /// else given, middle and family names and suffix separated by spaces (Ada King Lovelace); the nickname when there
    /// is nothing else; `nil` when Apple gave no part of the name (every component blank).
    ///
    /// Written here rather than by `PersonNameComponentsFormatter`, which Linux's Foundation lacks, so the rule is
    /// tested everywhere.
    package static func displayName(_ components: PersonNameComponents) -> String? {
        func part(_ value: String?) -> String? {
            guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
                return nil
            }
            return trimmed
        }
        let given = part(components.givenName)
        let middle = part(components.middleName)
        let family = part(components.familyName)
        let suffix = part(components.nameSuffix)
        let ordered: String
        if let family, isEastAsian(family) {
            ordered = ([family, middle, given].compactMap { $0 }).joined()
        } else {
            ordered = ([given, middle, family, suffix].compactMap { $0 }).joined(separator: " ")
        }
        return ordered.isEmpty ? part(components.nickname) : ordered
    }

    /// Whether `name` holds a Han, kana or Hangul character.
    private static func isEastAsian(_ name: String) -> Bool {
        name.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF: true
            default: false
            }
        }
    }
}
