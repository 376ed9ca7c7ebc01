package widget

import (
	"errors"
	"net/url"
	"regexp"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// A failed read is shown on one line: what failed and why. The inspector's
// client says "GET http://127.0.0.1:8082/debug/backoff/v1/key?controller=…:
// Get \"http://…\": dial tcp …: connection refused": the URL, twice, takes
// the line, and the width cuts the reason off. causeText keeps the method
// and the endpoint's route ("GET v1/key"), drops the transport's repeat of
// the URL, and keeps the reason whole.

// urlPattern matches a URL in an error's text, without the punctuation
// after it ("…%2Fnaive-00001: Get").
var urlPattern = regexp.MustCompile(`https?://[^\s"]*[^\s":;,.)]`)

// CauseText is err on one line with its URLs shortened to their route and
// the transport's repeat of the URL dropped:
// "GET v1/key: dial tcp 127.0.0.1:8082: connect: connection refused".
func CauseText(err error) string {
	s := err.Error()
	if ue, ok := errors.AsType[*url.Error](err); ok {
		s = strings.Replace(s, ue.Error(), ue.Err.Error(), 1)
	}
	return text.OneLine(urlPattern.ReplaceAllStringFunc(s, shortURL), 0)
}

// shortURL is a URL's route: the last two segments of its path, which name
// the endpoint's call (v1/key, v1/keys), without host or query; the host
// is in the header, the query is the key the view already names.
func shortURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Path == "" || u.Path == "/" {
		return raw
	}
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	return strings.Join(segs[max(0, len(segs)-2):], "/")
}
