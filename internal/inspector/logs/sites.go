package logs

import (
	"strconv"
	"time"
)

// Two queues of one program may log one statement from files of one name.
// kube-apiserver's aggregator runs an OpenAPI v2 and an OpenAPI v3
// AggregationController, each in a controller.go of its own package, each
// logging `loading OpenAPI spec for "KEY" failed with: ERR` through
// HandleError for the same APIService, both woken by its one change. Where
// nothing else names a controller, klog's file does (genericController:
// "controller"), and the two queues' failures were read as one key's, each
// counted twice (batch20's 2001–2005 and 2020, batch23's 703). What tells
// them apart is the header's line number (controller.go:113 and
// controller.go:123): one handler writes one statement from one place, so
// the same statement (one template) naming one key at one moment
// (attemptWindow) from two lines of files of one name is two copies of the
// handler: two queues. Each line's failures are then a controller of their
// own, named as the header names its place ("controller.go:113").
//
// One key from two lines, not just two lines: one queue whose handler
// writes one template from two places of one file, each attempt from one
// of them, names the key from both only when it retries within the
// window; and one at one moment, not anywhere in the log: a program
// rebuilt between two runs of a saved log moves its lines, and its two
// runs are seconds apart at least.
//
// A saved read decides it from every record held (order.go) before any is
// applied, so a key's first failures are named as its later ones. A live
// read applies each record as it comes: had it split the queues when the
// second line came, the first line's first failures would stay behind
// under the file's name; it reads them as one controller, as before.

// siteID is a statement of a controller named by its caller's file.
type siteID struct{ controller, template string }

// siteKey is a statement naming one key (its namespace and name: no key
// string is built for each record held).
type siteKey struct {
	siteID
	namespace, name string
}

// siteSeen is the caller's line and the time of a key's last failure of a
// statement.
type siteSeen struct {
	line int
	at   time.Time
}

// siteNotes is what a saved read noted of the statements whose controller
// is a caller's file.
type siteNotes struct {
	last map[siteKey]siteSeen
	// split are the statements written from two lines at one moment:
	// their controllers are named by file and line.
	split map[siteID]bool
}

// noteSiteLocked notes a held record's caller line (hold, holdDecided).
func (s *Store) noteSiteLocked(r *Record) {
	if r.CallerLine == 0 || r.At.IsZero() || r.What != ErrorLine {
		return
	}
	n := &s.sites
	id := siteID{r.Controller, r.Template}
	if n.split[id] {
		return
	}
	k := siteKey{id, r.Namespace, r.Name}
	if seen, ok := n.last[k]; ok && seen.line != r.CallerLine {
		if d := r.At.Sub(seen.at); d <= attemptWindow && d >= -attemptWindow {
			if n.split == nil {
				n.split = map[siteID]bool{}
			}
			n.split[id] = true
			return
		}
	}
	if n.last == nil || len(n.last) > 4*DefaultMaxKeys {
		n.last = map[siteKey]siteSeen{}
	}
	n.last[k] = siteSeen{r.CallerLine, r.At}
}

// siteControllerLocked names the controller of r by its caller's file and
// line when its statement was written from two lines at one moment.
func (s *Store) siteControllerLocked(r *Record) {
	if r.CallerLine == 0 || !s.sites.split[siteID{r.Controller, r.Template}] {
		return
	}
	r.Controller += ".go:" + strconv.Itoa(r.CallerLine)
}
