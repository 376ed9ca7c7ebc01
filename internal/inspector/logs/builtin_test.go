package logs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestBuiltinDialectsLoad: the built-in dialects the binary ships load with
// no error, by the loader of --dialect FILE, and each is whole: it reads
// lines, every line is reachable past the markers' shortcut, one entry a
// name.
func TestBuiltinDialectsLoad(t *testing.T) {
	ds, err := parseDialects(builtinFile, builtinYAML)
	if err != nil {
		t.Fatalf("builtin.yaml: %v", err)
	}
	if e, a := len(builtins), len(ds); e != a || a < 9 {
		t.Fatalf("%d dialects, %d built-ins; want the same, at least 9", a, e)
	}
	names := map[string]bool{}
	for _, d := range ds {
		if names[d.Name] {
			t.Errorf("two dialects named %s: one entry a name", d.Name)
		}
		names[d.Name] = true
		if len(d.Lines) == 0 || len(d.markers) == 0 {
			t.Errorf("%s: %d lines, %d markers; want some of each", d.Name, len(d.Lines), len(d.markers))
		}
		for _, l := range d.Lines {
			text := l.Text
			if l.Regexp != nil {
				text, _ = l.Regexp.LiteralPrefix() // as markersOf reads it
			}
			if !hasMarker([]byte(text)) {
				t.Errorf("%s: %q holds no marker: its lines would be skipped unread", d.Name, text)
			}
		}
	}
	if !bytes.Contains(builtinYAML, []byte("name: controller-runtime")) {
		t.Error("builtin.yaml has no controller-runtime")
	}
	if kcmByFile["replica_set"] != kcmAmbiguous {
		t.Errorf("builtin.yaml names replica_set %q; kcmreplica.go tells %q apart", kcmByFile["replica_set"], kcmAmbiguous)
	}
}

// TestDialectFileIsABuiltin: a file may use every field a built-in does
// (key-sep, key: namespace, controller-from with files, a limiter's rules,
// a line's own controller), and a built-in's entry given as a file reads a
// log as the built-in does: one reader. The file is
// kube-controller-manager's own entry with its messages' words changed,
// read on a real kube-controller-manager log whose words are changed
// alike, so that no built-in reads its lines first.
func TestDialectFileIsABuiltin(t *testing.T) {
	start := bytes.Index(builtinYAML, []byte("  name: kube-controller-manager\n"))
	end := bytes.Index(builtinYAML, []byte("- # Knative"))
	if start < 0 || end < start {
		t.Fatal("builtin.yaml: no kube-controller-manager entry before Knative's")
	}
	words := strings.NewReplacer("name: kube-controller-manager\n", "name: my-kcm\n", `sync "`, `zync "`, `sync \"`, `zync \"`, "Deletion of namespace failed", "Deletion of namezpace failed",
		"Error syncing deployment", "Error zyncing deployment")
	file := "dialects:\n- " + strings.TrimPrefix(words.Replace(string(builtinYAML[start:end])), "  ")
	ds, err := parseDialects("my-kcm.yaml", []byte(file))
	if err != nil {
		t.Fatalf("kube-controller-manager's entry as a file: %v\n%s", err, file)
	}
	if len(ds) != 1 || ds[0].From.Files["replica_set"] != kcmAmbiguous || ds[0].Lines[0].Controller != "deployment-controller" || len(ds[0].Limiters) != 3 {
		t.Fatalf("read as %+v; want every field of the built-in", ds)
	}
	raw, err := os.ReadFile("testdata/wild/kube-controller-manager-e2e.log")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	read := func(log string, ds []Dialect) (string, map[string]int) {
		s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(now), Dialects: ds})
		if _, _, err := s.Read(context.Background(), strings.NewReader(log)); err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, name := range s.names() {
			_, keys := s.views(name)
			for _, k := range keys {
				last := ""
				if k.LastError != nil {
					last = k.LastError.Message
				}
				lines = append(lines, fmt.Sprintf("%s %s %s %d/%d %v %v %q\n", name, k.Key, k.State, k.Failures, k.TotalFailures, k.Delay.Duration, k.NextRetryAt, last))
			}
		}
		slices.Sort(lines)
		return strings.Join(lines, ""), s.LogRead().Recognised
	}
	want, wantBy := read(string(raw), nil)
	got, gotBy := read(words.Replace(string(raw)), ds)
	if want == "" || got != want {
		t.Errorf("the entry as a file read\n%s\nthe built-in\n%s", got, want)
	}
	if wantBy["kube-controller-manager (klog text)"] == 0 || gotBy["my-kcm (klog text)"] != wantBy["kube-controller-manager (klog text)"] {
		t.Errorf("recognised %v as a file, %v built in; want the same count under each name", gotBy, wantBy)
	}
}
