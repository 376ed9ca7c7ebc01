package api

import (
	"slices"
	"time"
)

// Watch event types (WatchEvent.Type).
const (
	// WatchPage is the page the same query would list: the client replaces
	// what it holds with it. It is the first event of every watch, and
	// comes again whenever the server says so.
	WatchPage = "PAGE"
	// WatchChange is what changed on the page since the previous event:
	// rows that entered it or whose fields changed, rows that left it, and
	// the page's order when it changed.
	WatchChange = "CHANGE"
	// WatchBookmark says nothing changed: the position and the server's
	// time move on, so a client knows the endpoint still answers.
	WatchBookmark = "BOOKMARK"
	// WatchError ends the watch: Error says why. Code 410 means the
	// position is too old (or the server restarted): list again, or watch
	// without resourceVersion.
	WatchError = "ERROR"
)

// The endpoints a watch is offered on (Capabilities.Watches).
const (
	WatchKeys        = "v1/keys"
	WatchErrors      = "v1/errors"
	WatchControllers = "v1/controllers"
)

// WatchEvent is one line of GET v1/keys?watch=true, v1/errors?watch=true or
// v1/controllers?watch=true: the response is JSON lines
// (application/x-ndjson), one event each, flushed as it is written. A
// client that reconnects with the last ResourceVersion it saw misses
// nothing: the server replays what followed it, or answers ERROR 410.
//
// The envelope is the same for the three; the rows are each endpoint's
// own: v1/keys fills Page and Changed, v1/errors ErrorPage and
// ChangedGroups, v1/controllers ControllerPage and ChangedControllers.
// Deleted and Order name rows by KeyRef in all three (see KeyRef).
type WatchEvent struct {
	Type string `json:"type"`
	// ResourceVersion is the position after this event: pass it back as
	// the resourceVersion parameter to resume. Opaque.
	ResourceVersion string `json:"resourceVersion"`
	// ServerTime is when the page was computed, on the server's clock.
	ServerTime time.Time `json:"serverTime"`
	// Page is a PAGE's page (with Total and Matched).
	Page *KeyList `json:"page,omitempty"`
	// Total and Matched are a CHANGE's counts, as KeyList has them.
	Total   int `json:"total,omitempty"`
	Matched int `json:"matched,omitempty"`
	// Changed are a CHANGE's rows that entered the page or changed, whole.
	Changed []Key `json:"changed,omitempty"`
	// Deleted are the rows that left the page.
	Deleted []KeyRef `json:"deleted,omitempty"`
	// Order, when set, is the page's new order: every row, first to last.
	Order []KeyRef `json:"order,omitempty"`
	// Error is an ERROR's reason.
	Error *ErrorBody `json:"error,omitempty"`

	// ErrorPage is a PAGE's groups, on v1/errors (with Total and Matched).
	ErrorPage *ErrorGroupList `json:"errorPage,omitempty"`
	// ChangedGroups are a v1/errors CHANGE's groups that appeared or
	// changed (a count, a time, the examples), whole.
	ChangedGroups []ErrorGroup `json:"changedGroups,omitempty"`
	// ControllerPage is a PAGE's controllers, on v1/controllers.
	ControllerPage *ControllerList `json:"controllerPage,omitempty"`
	// ChangedControllers are a v1/controllers CHANGE's controllers that
	// appeared or changed (counts, forecast, limiter), whole.
	ChangedControllers []Controller `json:"changedControllers,omitempty"`
	// Source is a v1/controllers CHANGE's list source (ControllerList.
	// Source), whole, when it changed: a log read further (more lines, a
	// later end, its successes seen). Absent when it did not.
	Source *ListSource `json:"source,omitempty"`
}

// KeyRef names one row of a watched page: on v1/keys a key of a
// controller; on v1/errors a group, by its controller and Fingerprint (Key
// empty); on v1/controllers a controller, by Controller alone.
type KeyRef struct {
	Controller string `json:"controller"`
	Key        string `json:"key"`
	// Fingerprint names an error group (ErrorGroup.Fingerprint); empty on
	// the other endpoints.
	Fingerprint string `json:"fingerprint,omitempty"`
}

// CanWatch says whether the server offers a watch of endpoint (WatchKeys,
// WatchErrors or WatchControllers): a client watches where it can and
// polls where it cannot, as an older server answers neither field.
func (c *Capabilities) CanWatch(endpoint string) bool {
	if endpoint == WatchKeys && c.Watch {
		return true
	}
	return slices.Contains(c.Watches, endpoint)
}
