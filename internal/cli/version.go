package cli

import (
	"cmp"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Version, Commit and Date describe a release build; hack/release.sh sets
// them with -ldflags "-X github.com/kubectl-backoff/kubectl-backoff/internal/cli.Version=v0.1.0
// -X ….Commit=<git sha> -X ….Date=<RFC 3339>". Date is the commit's date,
// not the clock's, so that building one commit twice gives the same bytes.
// Left empty (go install, go build), they come from what the Go toolchain
// recorded in the binary.
var (
	// Version is the release, e.g. v0.1.0.
	Version = ""
	// Commit is the git commit the release was built from.
	Commit = ""
	// Date is the commit's date, RFC 3339 in UTC.
	Date = ""
)

// NewVersionCommand returns `kubectl backoff version`.
func NewVersionCommand(streams genericiooptions.IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, the commit and date it was built from, and the wire API version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(streams.Out, currentBuild().String())
		},
	}
}

// version is this binary's version alone, e.g. for the tool a snapshot
// names: the stamped one, else the module's, else "devel".
func version() string { return currentBuild().version }

// currentBuild is what this binary knows about how it was built.
func currentBuild() build {
	bi, _ := debug.ReadBuildInfo()
	return resolveBuild(Version, Commit, Date, bi)
}

// build is what `version` says about this binary.
type build struct {
	version, commit, date string
}

// String is "kubectl-backoff VERSION, commit SHA, built DATE (wire API v1)",
// "unknown" where the binary does not know (a build with -buildvcs=false,
// or outside a git checkout): a bug report then says it was not known,
// rather than leaving the reader to wonder whether it was left out.
func (b build) String() string {
	var s strings.Builder
	s.WriteString("kubectl-backoff " + b.version)
	s.WriteString(", commit " + cmp.Or(b.commit, "unknown"))
	s.WriteString(", built " + cmp.Or(b.date, "unknown"))
	fmt.Fprintf(&s, " (wire API %s)", api.APIVersion)
	return s.String()
}

// resolveBuild prefers what the release stamped; else what the toolchain
// recorded: the module version `go install …@v0.1.0` knows, and the VCS
// revision and commit time `go build` in a git checkout knows ("-dirty" when
// the tree had uncommitted changes); else "devel".
func resolveBuild(version, commit, date string, bi *debug.BuildInfo) build {
	b := build{version: version, commit: commit, date: date}
	if bi == nil {
		if b.version == "" {
			b.version = "devel"
		}
		return b
	}
	if b.version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		b.version = bi.Main.Version
	}
	if b.version == "" {
		b.version = "devel"
	}
	var rev, at string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if b.commit == "" && rev != "" {
		b.commit = rev
		if modified {
			b.commit += "-dirty"
		}
	}
	if b.date == "" {
		b.date = at
	}
	return b
}
