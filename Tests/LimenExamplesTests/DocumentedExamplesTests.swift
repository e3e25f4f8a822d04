import Foundation
import Testing

/// The README's and the DocC articles' Swift examples are the compiled code of this target, so they cannot drift
/// from the API (issue 9: the README's example did not compile).
@Suite("Documented examples")
struct DocumentedExamplesTests {
    @Test("every Swift block of the README and of the DocC articles is a compiled example, character for character")
    func blocksAreCompiled() throws {
        let regions = Set(try DocumentedExamples.compiledRegions().values)
        #expect(!regions.isEmpty)
        for document in try DocumentedExamples.documents() {
            for block in DocumentedExamples.swiftBlocks(inMarkdown: try String(contentsOf: document, encoding: .utf8)) {
                let compiled = regions.contains(block)
                #expect(
                    compiled,
                    """
                    \(document.lastPathComponent): this block is no compiled example in \
                    Tests/LimenExamplesTests/Examples (copy the region between `// snippet: NAME` and \
                    `// end snippet` there):
                    \(block)
                    """
                )
            }
        }
    }

    @Test("every compiled example is shown in the README or a DocC article")
    func examplesAreShown() throws {
        let blocks = try DocumentedExamples.documents().flatMap { document in
            DocumentedExamples.swiftBlocks(inMarkdown: try String(contentsOf: document, encoding: .utf8))
        }
        for (name, region) in try DocumentedExamples.compiledRegions() {
            let shown = blocks.contains(region)
            #expect(shown, "the example \(name) is in no document")
        }
    }

    @Test("a region leaves out its hidden lines and the indentation of the function around it")
    func regionExtraction() {
        let source = """
            import Foundation
            // snippet: demo
            import Limen

            // snippet.hide
            func demo() {
                // snippet.show
                let a = 1
                if a > 0 {
                    print(a)
                }
                // snippet.hide
            }
            // end snippet
            let outside = 2
            """
        #expect(
            DocumentedExamples.regions(inSwift: source) == [
                "demo": "import Limen\n\nlet a = 1\nif a > 0 {\n    print(a)\n}"
            ])
    }

    @Test("only swift code blocks are examples; a changed block no longer matches its region")
    func blockExtraction() {
        let markdown = """
            Text.

            ```sh
            swift build
            ```

            ```swift
            let a = 2
            ```
            """
        let blocks = DocumentedExamples.swiftBlocks(inMarkdown: markdown)
        #expect(blocks == ["let a = 2"])
        #expect(
            !blocks.contains(DocumentedExamples.regions(inSwift: "// snippet: a\nlet a = 1\n// end snippet")["a"] ?? "")
        )
    }
}
