import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads answers from standard input: one line each, a password without echo when standard input is a terminal
/// (termios), and as a plain line when it is a pipe (scripts and tests).
struct TerminalInput {
    /// Writes `prompt` to standard error and reads one line; `nil` at the end of the input.
    func line(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        return isatty(STDIN_FILENO) == 1 ? readLine(strippingNewline: true) : piped()
    }

    /// Like ``line(_:)``, with echo off while a terminal types the answer (turned off before the prompt shows, so
    /// that nothing typed after it is echoed).
    func hiddenLine(_ prompt: String) -> String? {
        var original = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &original) == 0 else {
            FileHandle.standardError.write(Data(prompt.utf8))
            return piped()
        }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        FileHandle.standardError.write(Data(prompt.utf8))
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }

    /// A line from a pipe, which echoes nothing: the newline is written so that each prompt gets its own line.
    private func piped() -> String? {
        defer { FileHandle.standardError.write(Data("\n".utf8)) }
        return readLine(strippingNewline: true)
    }
}
