package logs

// genericName is the dialect of a line read by the generic reader of the
// work-queue idiom (generic.go), behind every named dialect.
const genericName = "generic (work-queue idiom)"
