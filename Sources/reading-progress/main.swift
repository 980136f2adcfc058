print("reading-progress: not built yet")
