/// What each scope lets a client do, in the words of the consent page.
enum ScopeDescriptions {
    /// The description of `scope`, or the scope itself when it has none.
    static func describe(_ scope: String) -> String {
        switch scope {
        case "openid": "Know who you are on this server"
        case "profile": "See your name"
        case "email": "See your email address"
        case "phone": "See your phone number"
        case "offline_access": "Stay connected when you are not using it"
        default: scope
        }
    }
}
