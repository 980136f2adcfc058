extension WebAsset {
    /// The editors' dashboard (docs/dashboard.md): its page at `/`, its modules, stylesheet
    /// and icon under `/dashboard/`. None has a name that changes between releases, so each is
    /// revalidated on every use (`no-cache`) and a new release is picked up at once.
    static let dashboard: [WebAsset] =
        [
            WebAsset(
                paths: ["/"], label: .dashboard, contentType: ContentType.html, cacheControl: "no-cache",
                headers: documentHeaders, body: PackageResources.index_html),
            dashboardFile("dashboard.css", ContentType.css, PackageResources.dashboard_css),
            WebAsset(
                paths: ["/dashboard/favicon.svg"], label: .dashboardFile, contentType: ContentType.svg,
                cacheControl: "public, max-age=86400", headers: documentHeaders,
                body: PackageResources.favicon_svg),
            WebAsset(
                paths: ["/favicon.ico"], label: .favicon, contentType: ContentType.icon,
                cacheControl: "public, max-age=86400", headers: pageFileHeaders,
                body: PackageResources.favicon_ico),
        ] + modules.map { dashboardFile($0.name, ContentType.javascript, $0.body) }

    /// The dashboard's ES modules, one a view or concern.
    private static let modules: [(name: String, body: [UInt8])] = [
        ("app.js", PackageResources.app_js),
        ("api.js", PackageResources.api_js),
        ("state.js", PackageResources.state_js),
        ("dom.js", PackageResources.dom_js),
        ("format.js", PackageResources.format_js),
        ("csv.js", PackageResources.csv_js),
        ("controls.js", PackageResources.controls_js),
        ("notices.js", PackageResources.notices_js),
        ("chart.js", PackageResources.chart_js),
        ("chart-parts.js", PackageResources.chart_parts_js),
        ("sections-view.js", PackageResources.sections_view_js),
        ("segments-chart.js", PackageResources.segments_chart_js),
        ("segments-view.js", PackageResources.segments_view_js),
        ("list-view.js", PackageResources.list_view_js),
        ("article-view.js", PackageResources.article_view_js),
        ("token-view.js", PackageResources.token_view_js),
    ]

    private static func dashboardFile(_ name: String, _ contentType: String, _ body: [UInt8]) -> WebAsset {
        WebAsset(
            paths: ["/dashboard/" + name], label: .dashboardFile, contentType: contentType,
            cacheControl: "no-cache", headers: pageFileHeaders, body: body)
    }
}
