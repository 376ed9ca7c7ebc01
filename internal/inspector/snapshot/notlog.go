package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
)

// ErrLog is what a log given where a snapshot goes (diff s1.json demo.log)
// is told; a command that reads logs too says how.
var ErrLog = errors.New("not a snapshot (it looks like a log)")

// klogHeader is the start of a klog text line: severity, date, time
// ("E0702 17:01:48.178423"), as k8s.io/klog/v2 formats its header.
var klogHeader = regexp.MustCompile(`^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+ `)

// looksLikeLog reports whether a file's start is a log's first line:
// a JSON object with a message and a time or level (zap's "msg" and "ts",
// logr's and slog's "msg" and "time", "message" and "timestamp"), or a
// klog text header. A snapshot's first line is "{", which is neither.
func looksLikeLog(head []byte) bool {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	line = bytes.TrimSpace(line)
	if klogHeader.Match(line) {
		return true
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(line, &fields) != nil {
		return false
	}
	has := func(names ...string) bool {
		for _, n := range names {
			if _, ok := fields[n]; ok {
				return true
			}
		}
		return false
	}
	return has("msg", "message") && has("ts", "time", "timestamp", "level")
}
