print("bench-ceiling: not built yet")
