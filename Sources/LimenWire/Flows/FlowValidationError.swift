/// What is wrong with a collector's value, checked on the device with the rules the server sent (PingDavinci's
/// `ValidationError`). Each case's ``code`` is the `code` the server gives the same problem in an error node's
/// `details`, and ``message`` is the server's sentence.
public enum FlowValidationError: Error, Sendable, Equatable {
    /// A required value is missing (`required`).
    case required
    /// The value does not match the collector's regular expression (`regex`); the server's message is kept.
    case regex(String, message: String)
    /// The text is longer than a `TEXT` collector takes (`too_long`).
    case tooLong(max: Int)
    /// The password is too short or too long (`invalid_length`).
    case invalidLength(min: Int, max: Int)
    /// The password has too few distinct characters (`unique_character`).
    case uniqueCharacter(min: Int)
    /// The password repeats one character too often in a row (`max_repeat`).
    case maxRepeat(max: Int)
    /// The password has too few characters of some class (`min_characters`).
    case minCharacters(FlowPasswordPolicy.CharacterMinimums)
    /// The repeated password differs from the password (`password_mismatch`).
    case passwordMismatch
    /// A choice that is not among the options, or one chosen twice (`invalid_option`).
    case invalidOption

    /// The stable code, the same as the server's detail code.
    public var code: String {
        switch self {
        case .required: "required"
        case .regex: "regex"
        case .tooLong: "too_long"
        case .invalidLength: "invalid_length"
        case .uniqueCharacter: "unique_character"
        case .maxRepeat: "max_repeat"
        case .minCharacters: "min_characters"
        case .passwordMismatch: "password_mismatch"
        case .invalidOption: "invalid_option"
        }
    }

    /// A sentence for the person, the same as the server's (a `required` one names no field: prefix the label).
    public var message: String {
        switch self {
        case .required: "This field is required."
        case .regex(_, let message): message
        case .tooLong(let max): "Use at most \(max) characters."
        case .invalidLength(let min, let max): "Use between \(min) and \(max) characters for your password."
        case .uniqueCharacter(let min): "Use at least \(min) different characters."
        case .maxRepeat(let max): "Do not repeat a character more than \(max) times in a row."
        case .minCharacters(let minimums):
            "Use at least "
                + [
                    (minimums.lowercase, "lowercase letter"), (minimums.uppercase, "uppercase letter"),
                    (minimums.digits, "digit"), (minimums.special, "other character"),
                ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: ", ") + "."
        case .passwordMismatch: "The passwords do not match."
        case .invalidOption: "Choose among the options."
        }
    }
}
