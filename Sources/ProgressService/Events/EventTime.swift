import ProgressStore

/// Event times: RFC 3339 strings or integer epoch milliseconds in, RFC 3339 UTC out.
enum EventTime {
    static let maximumFutureMs: Int64 = 5 * 60 * 1000
    static let maximumAgeMs: Int64 = 30 * 86_400_000

    /// The time a client sent, in ms since the epoch; `nil` when it sent none.
    static func parse(_ value: JSONValue?) throws(APIError) -> Int64? {
        switch value {
        case nil: return nil
        case .number(let number, _)?:
            guard let ms = epochMilliseconds(number) else {
                throw .invalidEvent(
                    "time must be whole epoch milliseconds or an RFC 3339 string", field: "time")
            }
            return ms
        case .string(let text)?:
            guard let ms = parseRFC3339(text) else {
                throw .invalidEvent(
                    "time must be an RFC 3339 date-time such as 2026-11-30T08:00:00Z", field: "time")
            }
            return ms
        case let other?:
            throw .invalidEvent("time must be a string or an integer, not \(other.typeName)", field: "time")
        }
    }

    /// A number `time` as milliseconds: whole and below 10¹⁵ (some 31,000 years either way).
    static func epochMilliseconds(_ number: Double) -> Int64? {
        guard number == number.rounded(), number.magnitude < 1e15 else { return nil }
        return Int64(number)
    }

    /// Rejects times more than 5 minutes ahead of `nowMs` or more than 30 days behind it.
    static func check(_ ms: Int64, nowMs: Int64) throws(APIError) {
        if ms > nowMs + maximumFutureMs {
            throw .invalidEvent("time is more than 5 minutes ahead of the server clock", field: "time")
        }
        if ms < nowMs - maximumAgeMs {
            throw .invalidEvent("time is more than 30 days old", field: "time")
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `t`, `z` and a space separator are accepted
    /// as RFC 3339 allows. A leap second (`:60`) counts as the last millisecond of its minute.
    static func parseRFC3339(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parseRFC3339($0) }
    }

    /// The same, read from the bytes between a JSON string's quotes.
    static func parseRFC3339(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard b.count >= 20 else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for i in start..<(start + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2),
            b[7] == UInt8(ascii: "-"), let day = digits(8, 2),
            [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(b[10]),
            let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
            b[16] == UInt8(ascii: ":"), let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month), hour <= 23, minute <= 59,
            second <= 60
        else { return nil }
        var i = 19
        var millis = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if i - fractionStart < 3 { millis = millis * 10 + Int(b[i] - 48) }
                i += 1
            }
            guard i > fractionStart else { return nil }
            for _ in min(i - fractionStart, 3)..<3 { millis *= 10 }
        }
        guard i < b.count else { return nil }
        var offsetMinutes = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            guard let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"),
                let om = digits(i + 4, 2), oh <= 23, om <= 59
            else { return nil }
            offsetMinutes = sign * (oh * 60 + om)
            i += 6
        default:
            return nil
        }
        guard i == b.count else { return nil }
        let leap = second == 60
        let days = Int64(daysFromCivil(year, month, day))
        var ms = days * 86_400_000 + Int64(hour * 3_600_000 + minute * 60_000 + min(second, 59) * 1000)
        ms += leap ? 999 : Int64(millis)
        return ms - Int64(offsetMinutes) * 60_000
    }

    /// `2026-11-30T08:00:00.123Z`, or without the fraction when it is zero.
    static func format(_ ms: Int64) -> String {
        let days = Int(ms.floorDivided(by: 86_400_000))
        let inDay = Int(ms - Int64(days) * 86_400_000)
        let (y, m, d) = civilFromDays(days)
        let time = "\(pad(inDay / 3_600_000, 2)):\(pad(inDay / 60_000 % 60, 2)):\(pad(inDay / 1000 % 60, 2))"
        let fraction = inDay % 1000 == 0 ? "" : ".\(pad(inDay % 1000, 3))"
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(time)\(fraction)Z"
    }

    /// Parses a `YYYY-MM-DD` query date into days since the epoch.
    static func parseDay(_ text: Substring) -> Int32? {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return nil }
        func digits(_ r: Range<Int>) -> Int? {
            var v = 0
            for i in r {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                v = v * 10 + Int(b[i] - 48)
            }
            return v
        }
        guard let y = digits(0..<4), let m = digits(5..<7), let d = digits(8..<10), (1...12).contains(m),
            d >= 1, d <= daysInMonth(y, m)
        else { return nil }
        return Int32(daysFromCivil(y, m, d))
    }

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's days-from-civil: proleptic Gregorian calendar, day 0 = 1970-01-01.
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
