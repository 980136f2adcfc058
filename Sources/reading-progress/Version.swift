/// The version `--version` prints.
let version = "0.1.0"
