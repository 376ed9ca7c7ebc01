package explain

import (
	"regexp"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A key read by the generic reader of the work-queue idiom (api.Key.LogLine)
// belongs to a controller no dialect names: the log's advice of a level
// (api.ListSource.SuccessesHow) is another controller's, the first whose
// dialect advises one, and its flag may be another logger's. A klog
// controller beside a controller-runtime one in one log was told "Run the
// controller at --zap-log-level=5". Its own line says which logger wrote
// it, and so which flag raises its verbosity: klog's -v, zap's level; of
// any other, no flag is said, only what to look for.

// lineLogger is the logger whose format a log line has.
type lineLogger int

const (
	loggerOther lineLogger = iota
	loggerKlog
	loggerZap
)

// klogHeader is klog's line header anywhere in a line (after a collection
// prefix: a pod's name, a timestamp): a level letter and MMDD, the time,
// the thread id, then file:line].
var klogHeader = regexp.MustCompile(`(?:^|[\s\]])[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [^\s\]]+:\d+\]`)

// zapConsole is zap's console encoding: a time, then a tab, its level in
// capitals or not, a tab.
var zapConsole = regexp.MustCompile(`\S\t(?i:debug|info|warn|error|dpanic|panic|fatal)\t`)

// loggerOf says which logger wrote line, by its shape: klog's header, zap's
// JSON (its "ts" and "level" fields) or console encoding; other for any
// other (slog, logrus, logfmt, a project's own).
func loggerOf(line string) lineLogger {
	switch {
	case klogHeader.MatchString(line):
		return loggerKlog
	case strings.Contains(line, `"ts":`) && strings.Contains(line, `"level":`), zapConsole.MatchString(line):
		return loggerZap
	}
	return loggerOther
}

// ownLine says whether k's advice is read from its own line: k was read by
// the generic reader, whose line is all that is known of its logger.
func ownLine(k api.Key) bool { return k.Source == api.SourceLogs && k.LogLine != "" }

// successesHowFor is the level that makes k's controller c log its
// successes, as its dialect advises (successesHow; own when c's own); none for a key read by
// the generic reader, whose dialect advises none (the log's advice is
// another controller's).
func successesHowFor(k api.Key, src *api.ListSource, c *api.Controller) (how string, own bool) {
	if ownLine(k) {
		return "", false
	}
	return successesHow(src, c)
}

// remedyFor is how to get k's successes into its log: for a key read by the
// generic reader, the verbosity flag of the logger its line shows
// (lineRemedy); else the level its dialect advises (verboseRemedy).
func remedyFor(k api.Key, src *api.ListSource, c *api.Controller) string {
	if ownLine(k) {
		return lineRemedy(loggerOf(k.LogLine))
	}
	return verboseRemedy(src, c)
}

// lineRemedy is, for a controller no dialect knows, how its successes may
// come into its log, by the logger that wrote its lines. No level is
// promised: what its successes look like, if it logs them, is its own.
func lineRemedy(l lineLogger) string {
	switch l {
	case loggerKlog:
		return "Its lines are klog's: at a higher -v (client-go's controllers log each sync's end, \"Finished syncing\", at -v=4) it may log its successes; " +
			"else the object's status shows them (kubectl backoff why TYPE/NAME reads it)."
	case loggerZap:
		return "Its lines are zap's: at a more verbose level (--zap-log-level=5 where it takes controller-runtime's flags) it may log its successes; " +
			"else the object's status shows them (kubectl backoff why TYPE/NAME reads it)."
	}
	return "Its log's format names no verbosity flag I know: look in its --help for a log level or verbosity, and in its log for lines naming this key without an error (its successes); " +
		"else the object's status shows them (kubectl backoff why TYPE/NAME reads it)."
}
