import HTTPTypes
import Hummingbird
import LimenServerCore
import NIOCore

/// The hosted pages' stylesheet, served at `/static/limen.css` so the pages' CSP can stay `style-src 'self'`.
enum Stylesheet {
    /// The path it is served at.
    static let path = "/static/limen.css"

    /// The dark scheme's colours: the system's choice unless a client's branding says `light` (``PageBrand``), and
    /// always with `dark`.
    static let dark = """
        --accent: #8ab0ff; --text: #e8eaed; --muted: #a9afb8; --bg: #111317; --card: #1b1e24; --line: #3b414b; \
        --error: #ff8a80;
        """

    /// Minimal, readable, with visible focus and a dark variant.
    static let css = """
        :root { color-scheme: light dark; --accent: #2f5bd3; --text: #1c1e21; --muted: #5b616b; --bg: #f4f5f7;
          --card: #fff; --line: #c9ced6; --error: #b42318; --link: var(--accent); --on-accent: var(--card); }
        @media (prefers-color-scheme: dark) { :root:not(.theme-light) { \(dark) } }
        :root.theme-dark { \(dark) }
        :root.theme-light { color-scheme: light; }
        :root.theme-dark { color-scheme: dark; }
        * { box-sizing: border-box; }
        body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1rem; background: var(--bg);
          color: var(--text); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        main { width: 100%; max-width: 24rem; background: var(--card); border: 1px solid var(--line);
          border-radius: 12px; padding: 2rem; }
        h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
        .context, .switch, .hint, .account, .optional { color: var(--muted); }
        .context { margin-top: 0; }
        .hint { font-size: .875rem; margin: -.5rem 0 1rem; }
        label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
        input { width: 100%; padding: .625rem .75rem; font: inherit; color: inherit; background: transparent;
          border: 1px solid var(--line); border-radius: 8px; margin-bottom: .75rem; }
        button { width: 100%; margin-top: 1rem; padding: .7rem 1rem; font: inherit; font-weight: 600; border: 0;
          border-radius: 8px; background: var(--accent); color: var(--on-accent); cursor: pointer; }
        button.secondary { background: transparent; color: var(--link); border: 1px solid var(--line); }
        button.danger { background: transparent; color: var(--error); border: 1px solid var(--error); }
        h2 { font-size: 1.125rem; margin: 2rem 0 .25rem; }
        .actions { display: flex; gap: .75rem; }
        input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid var(--accent);
          outline-offset: 2px; }
        a { color: var(--link); }
        .logo { display: block; max-height: 3rem; max-width: 100%; margin: 0 0 1rem; }
        .error { color: var(--error); font-weight: 600; }
        .notice { border-left: 4px solid var(--error); padding-left: .75rem; }
        .saved { border-left: 4px solid var(--accent); padding-left: .75rem; }
        .scopes { padding-left: 1.25rem; }
        .description { margin: 0 0 .25rem; }
        .field-error { color: var(--error); font-size: .875rem; margin: -.5rem 0 1rem; }
        .check { display: flex; gap: .5rem; align-items: baseline; margin: .75rem 0; }
        .check input { width: auto; margin: 0; }
        .check label { display: inline; margin: 0; font-weight: 400; }
        fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 1rem 0; padding: .5rem .75rem; }
        legend { font-weight: 600; padding: 0 .25rem; }
        select { width: 100%; padding: .625rem .75rem; font: inherit; color: inherit; background: var(--card);
          border: 1px solid var(--line); border-radius: 8px; margin-bottom: .75rem; }
        button.link { width: auto; margin: .5rem 0 0; padding: 0; background: transparent; color: var(--accent);
          font-weight: 400; text-decoration: underline; color: var(--link); }
        select:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .code { font-size: 2rem; font-weight: 700; letter-spacing: .2em; font-variant-numeric: tabular-nums;
          margin: 0 0 1rem; }
        main.console { max-width: 48rem; }
        textarea { width: 100%; padding: .625rem .75rem; font: inherit; color: inherit; background: transparent;
          border: 1px solid var(--line); border-radius: 8px; margin-bottom: .75rem; }
        textarea:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        code { overflow-wrap: anywhere; }
        .console nav a { margin-right: 1rem; }
        .events { padding-left: 1.25rem; overflow-wrap: anywhere; }
        .events li { margin-bottom: .75rem; }

        """

    /// Adds the route.
    static func add(to router: Router<some RequestContext>) {
        router.get(RouterPath(path)) { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "public, max-age=3600"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: css))
            )
        }
    }
}
