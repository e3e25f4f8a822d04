#if canImport(SwiftUI)
    import SwiftUI

    /// How LimenUI's flow sheet and buttons look (Rownd's `RowndCustomizations`): set it once with
    /// `.limenStyle(_:)` around the views. Fonts are text styles, so they follow Dynamic Type; colours
    /// left `nil` are the system's, so they follow dark mode.
    ///
    /// ```swift
    /// ContentView()
    ///     .limenStyle(LimenStyle(sheetBackground: Color.indigo, cornerRadius: 16, accent: Color.orange))
    /// ```
    public struct LimenStyle {
        /// The sheet's background; `nil`: the system's (light or dark).
        public var sheetBackground: Color?
        /// The curvature of the sheet's corners (Rownd's `sheetCornerBorderRadius`, 25 by default).
        public var cornerRadius: CGFloat
        /// The colour of buttons, links and toggles; `nil`: the app's accent colour.
        public var accent: Color?
        /// The step's title.
        public var titleFont: Font
        /// Labels, fields and messages.
        public var bodyFont: Font
        /// What is shown while a request is in flight, instead of the system's spinner (Rownd's `loadingAnimation`).
        public var loadingView: (@MainActor () -> AnyView)?

        /// A style; every argument left out is the default.
        public init(
            sheetBackground: Color? = nil,
            cornerRadius: CGFloat = 25,
            accent: Color? = nil,
            titleFont: Font = .title2,
            bodyFont: Font = .body,
            loadingView: (@MainActor () -> AnyView)? = nil
        ) {
            self.sheetBackground = sheetBackground
            self.cornerRadius = cornerRadius
            self.accent = accent
            self.titleFont = titleFont
            self.bodyFont = bodyFont
            self.loadingView = loadingView
        }
    }

    /// The environment entry holding the ``LimenStyle``.
    private struct LimenStyleKey: EnvironmentKey {
        static var defaultValue: LimenStyle { LimenStyle() }
    }

    extension EnvironmentValues {
        /// The style of LimenUI's views below (``LimenStyle``'s defaults unless set).
        public var limenStyle: LimenStyle {
            get { self[LimenStyleKey.self] }
            set { self[LimenStyleKey.self] = newValue }
        }
    }

    extension View {
        /// Styles LimenUI's views inside this one.
        public func limenStyle(_ style: LimenStyle) -> some View {
            environment(\.limenStyle, style)
        }
    }
#endif
