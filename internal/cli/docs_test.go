package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docFiles are the markdown files whose ```sh blocks a user copies, in
// the repository at root.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md in %s: %v", root, err)
	}
	return append([]string{filepath.Join(root, "README.md"), filepath.Join(root, "CONTRIBUTING.md")}, docs...)
}

// notRun are the documented commands the test only parses (bash -n), each
// with why it cannot run here: a cluster, a release, or minutes of build.
// Every entry must still match a documented line, so none outlives its
// command.
var notRun = []struct{ prefix, why string }{
	{"sha256sum -c checksums.txt", "needs a release's files (TestE2EKrew installs a release)"},
	{"tar -xzf kubectl-backoff_", "needs a release's archive"},
	{"install kubectl-backoff ", "installs into the user's ~/.local/bin"},
	{"kubectl krew install", "needs krew and a release (TestE2EKrew runs it)"},
	{"go test ./...", "the whole suite: minutes, and it would run this test again"},
	{"go test -run '^$' -bench", "the benchmarks: minutes"},
	{"KUBEBUILDER_ASSETS=$(hack/k8s-bin.sh)", "the e2e tier: builds kube-apiserver (tens of minutes cold), then needs kubectl"},
	{"KREW_BIN=$(hack/krew-bin.sh)", "the e2e krew test: builds krew, needs a release"},
	{"hack/release.sh", "builds release archives: minutes per platform"},
	{"hack/try-cluster.sh", "starts a cluster (TestE2E/try-cluster runs what it prints on the e2e tier's, the same)"},
	{"git tag ", "tags a release"},
	{"KO_DOCKER_REPO=", "builds an image, pushes it to a registry and applies to a cluster"},
	{"kubectl backoff top deploy/kubectl-backoff-demo", "the demo deployed on a cluster"},
	{"kubectl backoff why ", "reads objects on a cluster (the e2e tier runs why)"},
	{"journalctl -u kube-controller-manager", "reads a control-plane node's systemd journal"},
	{"kubectl backoff top --for ", "lists objects on a cluster"},
	{"kubectl backoff kick ", "patches objects on a cluster"},
	{"kubectl logs ", "reads a pod's log on a cluster"},
	{"kubectl backoff top deploy/my-operator", "streams pods' logs from a cluster"},
	{"kubectl backoff get deploy/my-operator", "streams pods' logs from a cluster"},
	{"kubectl backoff top -A", "discovers pods across a cluster"},
	{"kubectl backoff get -A", "discovers pods across a cluster"},
}

// docPlaceholders extend the examples' placeholders to the docs' log mode:
// a saved log is the demo's, its key one the demo logs.
var docPlaceholders = strings.NewReplacer(
	"saved.log", "demo.log",
	"team-a/web-tls", "demo/naive-00001",
)

// docBlock is one ```sh block: where it is, and its text.
type docBlock struct {
	where string // file:line
	text  string
}

// shBlock is a fenced sh block, indented as in a list item or not.
var shBlock = regexp.MustCompile("(?ms)^( *)```sh\n(.*?)^ *```")

// shBlocks are the ```sh blocks of one markdown text, their indentation
// removed.
func shBlocks(name, md string) []docBlock {
	var out []docBlock
	for _, m := range shBlock.FindAllStringSubmatchIndex(md, -1) {
		indent := md[m[2]:m[3]]
		var b strings.Builder
		for line := range strings.Lines(md[m[4]:m[5]]) {
			b.WriteString(strings.TrimPrefix(line, indent))
		}
		out = append(out, docBlock{fmt.Sprintf("%s:%d", name, strings.Count(md[:m[0]], "\n")+1), b.String()})
	}
	return out
}

// commandLines are a block's commands: continuation lines joined,
// comments and blank lines dropped, a trailing & cut (a demo in the
// background is run as any demo: started, and stopped once it serves).
func commandLines(block string) (lines []string) {
	for line := range strings.Lines(strings.ReplaceAll(block, "\\\n", " ")) {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, "  #"); i > 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lines = append(lines, strings.TrimSpace(strings.TrimSuffix(line, "&")))
	}
	return lines
}

// planLine says how a documented command is checked: run (as the
// kubectl backoff command line it is, `go run .` being the plugin), or
// only parsed, with the notRun entry that says why; or neither, which is
// an error.
func planLine(line string) (run string, skip int, err error) {
	for i, n := range notRun {
		if strings.HasPrefix(line, n.prefix) {
			return "", i, nil
		}
	}
	switch {
	case strings.HasPrefix(line, "go run . "):
		return "kubectl backoff " + strings.TrimPrefix(line, "go run . "), -1, nil
	case strings.HasPrefix(line, "kubectl backoff "), strings.HasPrefix(line, "curl "):
		return line, -1, nil
	}
	return "", -1, fmt.Errorf("%q is neither run against the demo nor in notRun with a reason", line)
}

// bashParses checks a block as bash would read it, without running it.
func bashParses(t *testing.T, b docBlock) {
	t.Helper()
	cmd := exec.Command("bash", "-n")
	cmd.Stdin = strings.NewReader(b.text)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s: bash -n: %v\n%s", b.where, err, out)
	}
}

// runDocCommands runs every command of the docs' sh blocks against the
// demo at addr (its controllers' log in demo.log in the working
// directory), in order, and parses every block with bash.
func runDocCommands(ctx context.Context, t *testing.T, root, addr string) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("bash is needed to parse the docs' sh blocks")
	}
	used := make([]bool, len(notRun))
	ran := 0
	repl := placeholders(addr)
	for _, file := range docFiles(t, root) {
		md, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, file)
		for _, b := range shBlocks(name, string(md)) {
			bashParses(t, b)
			lines := commandLines(b.text)
			for _, line := range lines {
				run, skip, err := planLine(line)
				if err != nil {
					t.Errorf("%s: %v", b.where, err)
					continue
				}
				if skip >= 0 {
					used[skip] = true
					continue
				}
				ran++
				// A demo, backgrounded or not, is started and stopped once it
				// serves (runExample); the commands after it use the demo
				// that serves already.
				t.Run(name+"/"+line, func(t *testing.T) {
					runDocLine(ctx, t, repl.Replace(docPlaceholders.Replace(run)))
				})
			}
		}
	}
	for i, u := range used {
		if !u {
			t.Errorf("notRun[%d] %q matches no documented command: remove it", i, notRun[i].prefix)
		}
	}
	if ran < 15 {
		t.Errorf("ran %d documented commands; the sh blocks moved?", ran)
	}
}

// runDocLine runs one command line: a POST with curl is sent as curl
// would, the rest as the examples are.
func runDocLine(ctx context.Context, t *testing.T, line string) {
	words := shellWords(line)
	if words[0] != "curl" || !strings.Contains(line, "-XPOST") {
		runExample(ctx, t, line)
		return
	}
	var url, body, contentType string
	for i := 1; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-d" && i+1 < len(words):
			i++
			body = words[i]
		case w == "-H" && i+1 < len(words):
			i++
			if v, ok := strings.CutPrefix(words[i], "Content-Type: "); ok {
				contentType = v
			}
		case strings.Contains(w, "/debug/backoff/"):
			url = "http://" + strings.TrimPrefix(w, "http://")
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("POST %s: %s", url, resp.Status)
	}
}

// TestDocLinesArePlanned: a documented command that is neither runnable
// against the demo nor allowed with a reason fails; the docs' own blocks
// (list items included) are found, continuation lines joined and & cut.
func TestDocLinesArePlanned(t *testing.T) {
	if _, _, err := planLine("helm install kubectl-backoff ./chart"); err == nil {
		t.Error("a command in no list was accepted")
	}
	if run, _, _ := planLine("go run . get --addr 127.0.0.1:8082"); run != "kubectl backoff get --addr 127.0.0.1:8082" {
		t.Errorf("go run . became %q", run)
	}
	md := "text\n\n- item:\n\n  ```sh\n  curl -s -XPOST x \\\n    -d '{}'\n  go run . demo --serve-only &   # serves\n  ```\n"
	blocks := shBlocks("x.md", md)
	if len(blocks) != 1 || blocks[0].where != "x.md:5" {
		t.Fatalf("blocks %+v, want one at x.md:5", blocks)
	}
	lines := commandLines(blocks[0].text)
	want := []string{"curl -s -XPOST x    -d '{}'", "go run . demo --serve-only"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", lines, want)
	}
	for _, file := range docFiles(t, "../..") {
		md, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range shBlocks(file, string(md)) {
			for _, line := range strings.Split(b.text, "\n") {
				if strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "  -d") {
					t.Errorf("%s: %q keeps its list indentation", b.where, line)
				}
			}
		}
	}
}
