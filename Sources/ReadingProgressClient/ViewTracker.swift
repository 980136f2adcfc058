import Foundation
import ProgressCore

/// One scroll geometry and the figures ProgressCore computed from it.
struct Sample: Equatable {
    var snapshot: ScrollSnapshot
    var figures: ProgressFigures
}

/// An event to queue: the geometry it reports, the engaged time it carries, when it happened.
struct EventDraft: Equatable {
    var snapshot: ScrollSnapshot
    var engagedMs: Int
    var time: Date
    /// The article's map, when this event carries it.
    var sections: [ArticleSection]? = nil
    /// The bands' engaged ms, when the event carries engaged time.
    var attention: [Int]? = nil
}

/// Decides, for one view of an article, which of the geometries it is shown become events: the
/// first; one that takes progress or seen depth past another step; the deepest ones when
/// scrolling comes to rest or the view goes away, when the events so far fall short of them;
/// one whenever enough engaged time has gathered. Everything else only updates the bar.
struct ViewTracker {
    /// How the tracker decides, from ``Reporter/Configuration``.
    struct Rules {
        /// Progress and seen depth are cut into this many steps; passing into a new one is an event.
        var depthSteps: Int
        /// Engaged time that makes an event of its own when it has gathered.
        var engagedInterval: TimeInterval
        /// How long after a scroll the reader still counts as engaged.
        var idleTimeout: TimeInterval
    }

    let rules: Rules
    /// The latest geometry.
    private(set) var latest: Sample?
    /// When the content last moved, for telling that scrolling came to rest.
    private(set) var lastMove: Date?
    private var deepestProgress: Sample?
    private var deepestSeen: Sample?
    /// The greatest figures the view's events carried so far; -1 before the first.
    private var sentProgress = -1.0
    private var sentSeen = -1.0
    private var engagement: Engagement
    private var attention = Attention()
    /// The article's map as the app last gave it, cleaned; nil when it gave none.
    var sections: [ArticleSection]?
    /// The map the view's events carried last.
    private var sentSections: [ArticleSection]?

    init(rules: Rules) {
        self.rules = rules
        engagement = Engagement(idleTimeout: rules.idleTimeout)
    }

    /// The view shows `sample` at `now`; `active` says whether the app was active since the last call.
    mutating func record(_ sample: Sample, at now: Date, active: Bool) -> [EventDraft] {
        count(to: now, active: active)
        if let latest, latest.snapshot.contentOffset != sample.snapshot.contentOffset {
            engagement.scrolled(at: now)
            lastMove = now
        }
        latest = sample
        if sample.figures.progress > deepestProgress?.figures.progress ?? -1 { deepestProgress = sample }
        if sample.figures.seenDepth > deepestSeen?.figures.seenDepth ?? -1 { deepestSeen = sample }
        if step(of: sample.figures.progress) > step(of: sentProgress)
            || step(of: sample.figures.seenDepth) > step(of: sentSeen)
            || engagement.pendingSeconds >= rules.engagedInterval
        {
            return [emit(sample, at: now)]
        }
        return []
    }

    /// Scrolling has come to rest: the deepest geometries the events so far fall short of, or
    /// the latest when enough engaged time has gathered.
    mutating func rest(at now: Date, active: Bool) -> [EventDraft] {
        count(to: now, active: active)
        let drafts = catchUp(at: now)
        guard drafts.isEmpty, engagement.pendingSeconds >= rules.engagedInterval, let latest else {
            return drafts
        }
        return [emit(latest, at: now)]
    }

    /// The view goes away or the app goes to the background: what ``rest(at:active:)`` sends,
    /// or the latest geometry when any engaged time is left to carry.
    mutating func finish(at now: Date, active: Bool) -> [EventDraft] {
        count(to: now, active: active)
        let drafts = catchUp(at: now)
        guard drafts.isEmpty, engagement.pendingSeconds >= 0.001 || sections != sentSections, let latest
        else {
            return drafts
        }
        return [emit(latest, at: now)]
    }

    /// Counts time up to `now` without a new geometry (the app changes state).
    mutating func advance(to now: Date, active: Bool) {
        count(to: now, active: active)
    }

    /// Counts engaged time up to `now`, and gives what it adds to the bands of the geometry
    /// shown meanwhile (the latest).
    private mutating func count(to now: Date, active: Bool) {
        let before = engagement.pendingSeconds
        engagement.advance(to: now, active: active)
        if let latest { attention.add(engagement.pendingSeconds - before, shown: latest.snapshot) }
    }

    /// The deepest geometries, by progress and by seen depth, that go further than the events so far.
    private mutating func catchUp(at now: Date) -> [EventDraft] {
        var drafts: [EventDraft] = []
        if let deepestProgress, deepestProgress.figures.progress > sentProgress {
            drafts.append(emit(deepestProgress, at: now))
        }
        // Usually the same geometry, which the first event has covered.
        if let deepestSeen, deepestSeen.figures.seenDepth > sentSeen {
            drafts.append(emit(deepestSeen, at: now))
        }
        return drafts
    }

    private mutating func emit(_ sample: Sample, at now: Date) -> EventDraft {
        sentProgress = max(sentProgress, sample.figures.progress)
        sentSeen = max(sentSeen, sample.figures.seenDepth)
        let engagedMs = engagement.take()
        var draft = EventDraft(snapshot: sample.snapshot, engagedMs: engagedMs, time: now)
        if engagedMs > 0 {
            draft.attention = attention.take(engagedMs: engagedMs, engagedLeft: engagement.pendingSeconds)
        }
        if let sections, sections != sentSections {
            draft.sections = sections
            sentSections = sections
        }
        return draft
    }

    /// Which of the ``Rules/depthSteps`` a figure in `0...1` lies in; -1 before the first event.
    private func step(of figure: Double) -> Int {
        figure < 0 ? -1 : Int((figure * Double(rules.depthSteps)).rounded(.down))
    }
}
