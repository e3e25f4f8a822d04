import Foundation

/// The compiled examples of this target and the Swift code blocks of the README and the DocC articles, so a test can
/// check that every block shown to readers is code that builds.
///
/// An example is a region of a Swift file in this target's `Examples` folder, from `// snippet: NAME` to `// end snippet`; lines between
/// `// snippet.hide` and `// snippet.show` (the function around the code, say) are left out. Each shown run of lines
/// loses its common indentation, so code inside a function reads as it would at the top level.
struct DocumentedExamples {
    /// The repository root, found from this file's path.
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The examples by name, as readers should see them.
    static func regions(inSwift source: String) -> [String: String] {
        var regions: [String: String] = [:]
        var name: String?
        var hidden = false
        var segments: [[Substring]] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let marker = line.trimmingCharacters(in: .whitespaces)
            if marker.hasPrefix("// snippet: ") {
                name = String(marker.dropFirst("// snippet: ".count))
                (hidden, segments) = (false, [[]])
            } else if marker == "// end snippet", let finished = name {
                regions[finished] = text(of: segments)
                name = nil
            } else if name == nil {
                continue
            } else if marker == "// snippet.hide" {
                hidden = true
            } else if marker == "// snippet.show" {
                (hidden, segments) = (false, segments + [[]])
            } else if !hidden {
                segments[segments.count - 1].append(line)
            }
        }
        return regions
    }

    /// The contents of every fenced `swift` code block of a Markdown document.
    static func swiftBlocks(inMarkdown markdown: String) -> [String] {
        var blocks: [String] = []
        var block: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if block == nil, line == "```swift" {
                block = []
            } else if let lines = block, line == "```" {
                blocks.append(lines.joined(separator: "\n"))
                block = nil
            } else {
                block?.append(line)
            }
        }
        return blocks
    }

    /// The README and every DocC article of the package's modules.
    static func documents() throws -> [URL] {
        let sources = root.appending(path: "Sources", directoryHint: .isDirectory)
        let catalogs = try FileManager.default.contentsOfDirectory(at: sources, includingPropertiesForKeys: nil)
            .flatMap { module in
                (try? FileManager.default.contentsOfDirectory(at: module, includingPropertiesForKeys: nil)) ?? []
            }
            .filter { $0.pathExtension == "docc" }
        let articles = try catalogs.flatMap { catalog in
            try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "md" }
        }
        return [root.appending(path: "README.md")] + articles.sorted { $0.path < $1.path }
    }

    /// The examples of every Swift file in this target's `Examples` folder.
    static func compiledRegions() throws -> [String: String] {
        let directory = root.appending(path: "Tests/LimenExamplesTests/Examples", directoryHint: .isDirectory)
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
            .reduce(into: [:]) { regions, file in
                regions.merge(Self.regions(inSwift: try String(contentsOf: file, encoding: .utf8))) { first, _ in first
                }
            }
    }

    /// The shown runs of lines, each without its common indentation, with blank lines trimmed at both ends.
    private static func text(of segments: [[Substring]]) -> String {
        let lines = segments.flatMap { segment -> [Substring] in
            let indent =
                segment.filter { !$0.allSatisfy(\.isWhitespace) }
                .map { $0.prefix { $0 == " " }.count }
                .min() ?? 0
            return segment.map { $0.allSatisfy(\.isWhitespace) ? "" : $0.dropFirst(indent) }
        }
        let first = lines.firstIndex { !$0.isEmpty } ?? lines.endIndex
        let last = lines.lastIndex { !$0.isEmpty } ?? first
        return lines[first..<max(first, last + 1)].joined(separator: "\n")
    }
}
