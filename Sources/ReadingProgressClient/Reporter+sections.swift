extension Reporter {
    /// The headings of `article` in the view on screen, before or after its first geometry:
    /// cleaned as ``ArticleSection/map(of:)`` says, and sent with the view's next event, then
    /// again whenever a changed map is given. The view's end forgets it. Returns the map sent.
    @discardableResult
    public func setSections(_ sections: [ArticleSection], article: String) -> [ArticleSection] {
        let map = ArticleSection.map(of: sections)
        let given: [ArticleSection]? = map.isEmpty ? nil : map
        sectionMaps[article] = given
        views[article]?.sections = given
        return map
    }
}
