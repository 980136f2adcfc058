import ProgressStore

extension MemoryIndex {
    /// Takes what `erasure` names out of the index (see IndexState+erasure.swift).
    func erase(_ erasure: Erasure) -> ErasureCount {
        state.write { state in
            switch erasure {
            case .reader(let reader): state.erase(reader: reader)
            case .article(let article): state.erase(article: article)
            }
        }
    }

    /// Takes out every record of a UTC day before `day`; returns how many.
    func dropDays(before day: Int32) -> Int {
        state.write { $0.dropDays(before: day) }
    }
}
