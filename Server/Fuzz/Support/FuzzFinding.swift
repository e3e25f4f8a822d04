/// What a server harness's check found: a crash for libFuzzer, a failure for the corpus tests.
package struct FuzzFinding: Error, Sendable, CustomStringConvertible {
    /// What is wrong, with the input involved.
    package let description: String
}
