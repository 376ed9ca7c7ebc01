// Package sourcetest is the conformance suite of a v1 source: one set of
// tests that every server of the endpoint's wire API runs against itself —
// the instrument's handler, log mode's store and a snapshot — so that paging,
// refusals and the fields a reader relies on are checked once, not copied per
// source. Each source's test builds itself holding the keys the suite asks
// for, and hands back its HTTP handler:
//
//	func TestConformance(t *testing.T) {
//		sourcetest.Run(t, func(t *testing.T, keys []sourcetest.Key) http.Handler {
//			s := NewStore(Options{})
//			// ... make s hold keys: one failure per key.Failures, last error key.Error
//			return s.Handler()
//		})
//	}
//
// The suite speaks only HTTP and the wire types (instrument/api), as a
// client does; it asserts what every source must agree on and nothing a
// source may legitimately say differently (a key's state, its times).
package sourcetest
