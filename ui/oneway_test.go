package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRootNamesNoViewsAnswer: the views take their answers one way
// (view.Receiver); the root has no case for a particular view's answer,
// nor writes a view's in-flight state on a pause. A new view is then its
// file and its registration line (TestRegisteredView), nothing here.
func TestRootNamesNoViewsAnswer(t *testing.T) {
	answers := []string{"view.RefreshedMsg", "view.DetailFetchedMsg", "view.GroupsFetchedMsg", "view.ForFetchedMsg",
		"view.FleetReadMsg", "view.ChainAskedMsg", "view.DetailChainMsg", ".Inflight = ", ".Loading = ", ".GroupsAt = "}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range answers {
			if strings.Contains(string(b), a) {
				t.Errorf("%s names %s: a view's answer goes to the view (view.Receiver), not through a case of the root", f, a)
			}
		}
	}
}
