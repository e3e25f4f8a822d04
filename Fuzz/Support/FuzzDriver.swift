import Foundation

/// Runs libFuzzer over one check, from a harness's `main.swift`.
///
/// SwiftPM links an executable's entry point under another name, so libFuzzer's own `main` never runs; the harness
/// hands its check to ``run(_:)``, which starts libFuzzer through `LLVMFuzzerRunDriver` with the command line's
/// arguments. Only a build with `-DFUZZING -sanitize=fuzzer,address` (see `Scripts/fuzz.sh`) links libFuzzer; any
/// other build prints how to make one and exits with status 2.
///
/// ```swift
/// FuzzDriver.run { input in _ = try? JSONValue(parsing: input) }
/// ```
public enum FuzzDriver {
    /// Feeds every input libFuzzer generates to `check`, which crashes (`fatalError`) on a finding; never returns.
    public static func run(_ check: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
        #if FUZZING
            currentCheck = check
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv, fuzzOne))
        #else
            FileHandle.standardError.write(Data("build the harness with Scripts/fuzz.sh, which adds libFuzzer\n".utf8))
            exit(2)
        #endif
    }
}

#if FUZZING
    /// The harness's check. libFuzzer calls ``fuzzOne(_:_:)`` from the one thread that runs it, after ``FuzzDriver/run(_:)``
    /// has set this and before the process exits, so nothing reads it while it is written.
    nonisolated(unsafe) private var currentCheck: ((UnsafeRawBufferPointer) -> Void)?

    /// libFuzzer's entry for one input; its archive references this symbol even though ``FuzzDriver`` drives it.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        currentCheck?(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }

    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt
#endif
