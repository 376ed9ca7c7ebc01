package cli

import (
	"runtime/debug"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// TestVersionPrintsStampedBuild: the release's -X values are what `version`
// prints, the commit and date included.
func TestVersionPrintsStampedBuild(t *testing.T) {
	defer func(v, c, d string) { Version, Commit, Date = v, c, d }(Version, Commit, Date)
	Version, Commit, Date = "v0.1.0", "4f2b9c1d0e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c", "2026-12-01T18:19:52Z"
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	cmd := NewVersionCommand(streams)
	cmd.SetArgs(nil)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("version: %v", err)
	}
	want := "kubectl-backoff v0.1.0, commit 4f2b9c1d0e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c, built 2026-12-01T18:19:52Z (wire API v1)\n"
	if got := out.String(); got != want {
		t.Errorf("version prints\n%q, want\n%q", got, want)
	}
}

// TestResolveBuild: without stamps, what the Go toolchain recorded fills in;
// stamps always win.
func TestResolveBuild(t *testing.T) {
	vcs := func(rev, at, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "-trimpath", Value: "true"}, {Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: modified}}
	}
	tests := []struct {
		name                  string
		version, commit, date string
		bi                    *debug.BuildInfo
		want                  string
	}{{
		name:    "release stamps win over the toolchain's record",
		version: "v0.2.0", commit: "aaaa", date: "2026-01-02T03:04:05Z",
		bi:   &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("bbbb", "2025-01-01T00:00:00Z", "true")},
		want: "kubectl-backoff v0.2.0, commit aaaa, built 2026-01-02T03:04:05Z (wire API v1)",
	}, {
		// go install github.com/kubectl-backoff/kubectl-backoff@v0.1.0: the
		// module proxy's zip has no VCS information.
		name: "go install of a tagged module",
		bi:   &debug.BuildInfo{Main: debug.Module{Path: "github.com/kubectl-backoff/kubectl-backoff", Version: "v0.1.0"}},
		want: "kubectl-backoff v0.1.0, commit unknown, built unknown (wire API v1)",
	}, {
		name: "go build in a checkout with uncommitted changes",
		bi:   &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("cccc", "2026-11-30T10:00:00Z", "true")},
		want: "kubectl-backoff devel, commit cccc-dirty, built 2026-11-30T10:00:00Z (wire API v1)",
	}, {
		name: "go build of a clean checkout",
		bi:   &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("dddd", "2026-11-30T10:00:00Z", "false")},
		want: "kubectl-backoff devel, commit dddd, built 2026-11-30T10:00:00Z (wire API v1)",
	}, {
		name: "no build information at all",
		want: "kubectl-backoff devel, commit unknown, built unknown (wire API v1)",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resolveBuild(tt.version, tt.commit, tt.date, tt.bi).String(); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
