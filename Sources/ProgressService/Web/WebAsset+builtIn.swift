extension WebAsset {
    /// Every file the service serves from memory.
    static var builtIn: [WebAsset] { dashboard + [tracker, trackerLite] }

    /// Headers every file of the service's own pages carries: no MIME sniffing, no article ids
    /// leaking to other sites in `Referer`, no embedding by other origins. Not for a file other
    /// sites load (a script they embed): `Cross-Origin-Resource-Policy: same-origin` blocks it.
    static let pageFileHeaders: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]

    /// A document's policy: its own scripts, stylesheets and images only — no inline script or
    /// style, no plug-ins, no `<base>`, no framing by another page.
    static let documentHeaders: [(name: String, value: String)] =
        pageFileHeaders + [
            (
                "Content-Security-Policy",
                "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
            ),
            ("X-Frame-Options", "DENY"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
        ]
}
