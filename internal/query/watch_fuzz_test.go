package query

import (
	"context"
	"net/http"
	"net/url"
	"testing"
)

// FuzzWatchResume: a resourceVersion, whatever it is, resumes a watch or
// is refused 400 (not a position, or ahead of the watch) or 410 (too old,
// another epoch); never a panic, and never a watcher left counted.
func FuzzWatchResume(f *testing.F) {
	h := newTestHandler(errorKeys(), Options{})
	f.Cleanup(h.CloseWatches)
	spec, err := h.keysWatch(url.Values{})
	if err != nil {
		f.Fatal(err)
	}
	hb, wt, _, err := h.subscribe(context.Background(), spec, "")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { hb.leave(wt) })
	for _, s := range []string{"", hb.epoch + "-0", hb.epoch + "-1", hb.epoch + "-99", "x-0", "-", hb.epoch + "-18446744073709551615", hb.epoch + "--1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rv string) {
		hb2, wt2, _, err := h.subscribe(context.Background(), spec, rv)
		if err != nil {
			if c := Body(err).Error.Code; c != http.StatusBadRequest && c != http.StatusGone {
				t.Fatalf("resourceVersion %q: %d %v; want 400 or 410", rv, c, err)
			}
		} else {
			hb2.leave(wt2)
		}
		h.watchMu.Lock()
		n := h.watchers
		h.watchMu.Unlock()
		if n != 1 {
			t.Fatalf("resourceVersion %q: %d watchers counted, want the 1 open", rv, n)
		}
	})
}
