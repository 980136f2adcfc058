import Foundation
import ProgressCore
import Testing

@testable import ReadingProgressClient

@Suite("Events on the wire")
struct WireEventTests {
    let snapshot = ScrollSnapshot(
        axis: .horizontal, contentOffset: Point(x: 300, y: 0), contentSize: Size(width: 1600, height: 200),
        containerSize: Size(width: 400, height: 200), contentInsets: Insets(leading: 8),
        region: Region(start: 0, end: 1500), step: Step(index: 2, total: 6),
        indicator: Indicator(trackLength: 90, thumbLength: 40))

    func object(_ event: WireEvent) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: event.encoded()) as? [String: Any])
    }

    @Test("an event carries its id, its time in epoch milliseconds and the geometry; slashes as they are")
    func fields() throws {
        let time = Date(timeIntervalSince1970: 1_764_547_200.123_9)
        let event = WireEvent(
            id: "e-1", time: time, article: "/blog/a", reader: "r-1", snapshot: snapshot, engagedMs: 1500)
        let json = try object(event)
        #expect(json["id"] as? String == "e-1")
        #expect(json["time"] as? Int == 1_764_547_200_123)
        #expect(json["reader"] as? String == "r-1")
        #expect(json["axis"] as? String == "horizontal")
        #expect((json["contentInsets"] as? [String: Double])?["leading"] == 8)
        #expect((json["step"] as? [String: Int]) == ["index": 2, "total": 6])
        #expect(json["engagedMs"] as? Int == 1500)
        #expect(String(decoding: try event.encoded(), as: UTF8.self).contains(#""article":"/blog/a""#))
        #expect(try WireEvent.decoded(from: event.encoded()) == event)
    }

    @Test("without a reader id the event has no reader field, and the service derives one")
    func noReader() throws {
        let event = WireEvent(
            id: "e-1", time: Date(), article: "/a", reader: nil, snapshot: snapshot, engagedMs: 0)
        #expect(try object(event)["reader"] == nil)
        #expect(try object(event).keys.contains("article"))
    }

    @Test("the service computes from an event the figures the device did")
    func sameFigures() throws {
        let server = try ServerProcess(store: "memory:")
        defer { server.stop() }
        var vertical = snapshot
        vertical.axis = .vertical
        vertical.region = nil
        for geometry in [snapshot, vertical, page(y: 150)] {
            let event = WireEvent(
                id: "e", time: Date(), article: "/a", reader: "r", snapshot: geometry, engagedMs: 0)
            let answer = try server.client().post(
                "/v1/progress", json: String(decoding: try event.encoded(), as: UTF8.self))
            #expect(answer.status == 200, "\(answer.text)")
            // JSONDecoder, whose numbers round-trip (JSONSerialization's on Linux do not).
            let answered = try JSONDecoder().decode(ProgressFigures.self, from: Data(answer.body))
            #expect(answered == (try geometry.figures()))
            #expect(try answer.json["percent"] as? String == (try geometry.figures()).percent)
        }
    }

    @Test("a batch body is the events' objects in a JSON array")
    func batch() throws {
        let body = WireEvent.batchBody([Data(#"{"a":1}"#.utf8), Data(#"{"b":2}"#.utf8)])
        #expect(String(decoding: body, as: UTF8.self) == #"[{"a":1},{"b":2}]"#)
        #expect(String(decoding: WireEvent.batchBody([]), as: UTF8.self) == "[]")
    }
}
