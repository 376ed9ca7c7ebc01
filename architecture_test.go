package main

import (
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is this module's path; floors names packages relative to it.
const module = "github.com/kubectl-backoff/kubectl-backoff"

// floors is ARCHITECTURE.md's import rules as data: per package of the
// module, the packages of the module it may import. A package not listed
// fails the test, so a new package (or a new edge) is a decision written
// here and in ARCHITECTURE.md, never an accident. The order is the floors,
// bottom first: nothing imports a package listed after it.
var floors = []struct {
	pkg     string
	imports []string
}{
	// The public surface: what a controller author imports.
	{"internal/text", nil}, // wrapping, cutting, durations, clock times, plurals and the one escape of untrusted text: every printer
	{"instrument/api", nil},
	{"instrument/authfilter", nil},
	{"internal/query", []string{"instrument/api"}},
	{"internal/query/sourcetest", []string{"instrument/api"}},
	{"instrument", []string{"instrument/api", "internal/query"}},
	// The client side: never instrument (and so never controller-runtime).
	{"internal/inspector/objstatus", nil},
	{"internal/inspector/kick", nil},
	{"internal/inspector/cluster", nil},
	{"internal/inspector/cluster/clustertest", nil},                            // a port-forward API server for tests: links testing
	{"internal/inspector/fleet/fleettest", nil},                                // the Grafana dashboard as the fleet's tests read it: links testing
	{"internal/inspector/fleet", []string{"instrument/api", "internal/query"}}, // the fleet through Prometheus' HTTP API: no client library
	{"internal/inspector/explain", []string{"internal/text", "instrument/api", "internal/inspector/objstatus"}},
	{"inspector", []string{"instrument/api", "internal/inspector/cluster", "internal/query"}}, // the v1 client: no explain
	{"internal/inspector/describe", []string{"instrument/api", "inspector", "internal/inspector/cluster", "internal/inspector/explain", "internal/inspector/objstatus"}},
	{"internal/inspector/logs", []string{"instrument/api", "internal/inspector/cluster", "internal/query"}},
	{"internal/inspector/snapshot", []string{"instrument/api", "inspector", "internal/inspector/explain", "internal/query"}},
	{"internal/inspector/why", []string{"internal/text", "instrument/api", "inspector", "internal/inspector/cluster", "internal/inspector/explain", "internal/inspector/logs", "internal/inspector/objstatus"}},
	// The TUI: widgets below the views below the root, nothing pointing back up.
	{"internal/ui/widget", []string{"internal/text", "instrument/api", "inspector", "internal/inspector/explain", "internal/query"}},
	{"internal/ui/view", []string{"internal/text", "instrument/api", "inspector", "internal/inspector/cluster", "internal/inspector/describe", "internal/inspector/explain", "internal/inspector/fleet", "internal/inspector/objstatus", "internal/inspector/why", "internal/query", "internal/ui/widget"}},
	{"ui", []string{"internal/text", "instrument/api", "inspector", "internal/inspector/explain", "internal/ui/view", "internal/ui/widget"}},
	// The demo is a controller: it imports instrument, and only cli imports it.
	{"demo", []string{"instrument", "instrument/api"}},
	// The MCP server: the CLI's answers for assistants; never demo (controller-runtime).
	{"internal/mcpserver", []string{"internal/text", "instrument/api", "inspector", "internal/inspector/describe", "internal/inspector/explain", "internal/inspector/kick", "internal/inspector/why", "internal/query"}},
	{"internal/cli", []string{"internal/text", "instrument/api", "demo", "inspector", "internal/mcpserver", "internal/inspector/cluster", "internal/inspector/describe", "internal/inspector/explain", "internal/inspector/fleet", "internal/inspector/kick", "internal/inspector/logs", "internal/inspector/objstatus", "internal/inspector/snapshot", "internal/inspector/why", "internal/query", "ui"}}, // not the TUI's parts: a key's row is explain.KeyRow
	{"internal/repotest", nil},                      // the tests of config/'s manifests and hack/'s scripts: no Go API
	{"", []string{"internal/text", "internal/cli"}}, // the plugin's main: its last error printed through text.Printable
}

// public are the packages outside internal/ that may export names: the
// library a controller author imports (instrument and its two), and the
// card's rooms an embedding program may call (inspector, ui, demo), whose
// surfaces TestRoomsExportOnlyWhatIsUsed keeps small.
var public = []string{"instrument", "instrument/api", "instrument/authfilter", "inspector", "ui", "demo"}

// rooms are the importable packages with no compatibility promise yet:
// each exports only what another package of the module calls.
var rooms = []string{"inspector", "ui", "demo"}

type listed struct {
	ImportPath string
	Name       string
	Imports    []string
	GoFiles    []string
}

// TestImportFloors keeps the floors of ARCHITECTURE.md: every package's
// imports of the module are among those its floor allows, and no package
// exists that the floors do not place.
func TestImportFloors(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	allowed := map[string][]string{}
	for _, f := range floors {
		allowed[f.pkg] = f.imports
	}
	for _, p := range goList(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if len(p.GoFiles) == 0 || strings.HasPrefix(rel, "test/") {
			continue // tests only
		}
		ok, placed := allowed[rel]
		if !placed {
			t.Errorf("package %q has no floor: add it to floors here and to ARCHITECTURE.md", rel)
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			dep := strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
			if !slices.Contains(ok, dep) {
				t.Errorf("%q imports %q, which its floor does not allow (ARCHITECTURE.md)", rel, dep)
			}
		}
	}
}

// TestPublicSurface checks that the packages outside internal/ that export
// names are the three meant for controller authors.
func TestPublicSurface(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, p := range goList(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if rel == "" || len(p.GoFiles) == 0 || strings.HasPrefix(rel, "internal/") || strings.HasPrefix(rel, "test/") || slices.Contains(public, rel) {
			continue
		}
		out, err := exec.Command("go", "doc", "-short", p.ImportPath).CombinedOutput()
		if err != nil {
			t.Fatalf("go doc %s: %v\n%s", rel, err, out)
		}
		if s := strings.TrimSpace(string(out)); s != "" {
			t.Errorf("package %q is importable and exports:\n%s\nmove it under internal/, or make it public in ARCHITECTURE.md and here", rel, s)
		}
	}
}

// goList is every package of the module, as go list describes it.
func goList(t *testing.T) []listed {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listed
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < len(floors) {
		t.Fatalf("go list found %d packages, fewer than the %d floors: run from the module root", len(pkgs), len(floors))
	}
	return pkgs
}
