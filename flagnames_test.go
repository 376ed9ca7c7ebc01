package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// flagWordsAllowed are the packages' strings that may spell one of the
// CLI's flags, by file and flag, each with its reason. A new entry is a
// decision: a library says what is wrong in its own words (a typed error,
// a field of its own) and the CLI says the flag (internal/cli/flagwords.go,
// explain.Command.Render for a suggested command).
var flagWordsAllowed = map[string][]string{
	// kubectl's own command, which the user runs as it is:
	// "kubectl get pods -n kube-system -l component=kube-scheduler".
	"internal/inspector/why/podsched.go": {"-l"},
	// A target as kubectl and the plugin both spell a selector ("-l app=x"),
	// the word a command line takes in a TARGET's place.
	"internal/inspector/cluster/target.go": {"-l"},
	"internal/inspector/why/pods.go":       {"-l"},
	// The MCP server's tools mirror the commands; their flags' wording is
	// the command's (ARCHITECTURE.md, internal/mcpserver).
	"internal/mcpserver/read.go": {"-q"},

	// The TUI's help, about the commands of the same binary: a limiter's
	// "spread" and a backoff's slot come from forget --requeue --spread,
	// and top --for's view is titled by its command. The help goldens
	// (ui/testdata/TestGolden/help_*) pin these words; to move them, the
	// CLI would hand the TUI the words (as view.Options.Narrow does).
	"internal/ui/view/helptext.go": {"--requeue", "--spread"}, // help on forget's flags
	"ui/layer.go":                  {"--for"},                 // the title of top --for's view in help
}

// TestNoFlagNamesOutsideTheCLI: no string of a package outside the CLI
// (internal/cli and main.go) spells one of the CLI's own flags: the
// libraries say what is wrong in their words, and the CLI names the flag.
// kubectl's flags (genericclioptions.ConfigFlags: -n, --context, …) are
// not the CLI's own: a kubectl command a finding suggests uses them. Only
// string literals are read; a comment may say which flag sets a field.
func TestNoFlagNamesOutsideTheCLI(t *testing.T) {
	ours := cliFlags(t)
	used := map[string]bool{} // file + " " + flag of the allow list met
	flagWord := regexp.MustCompile("(?:^|[\\s(`'\"=,;:])(--?[A-Za-z][A-Za-z0-9-]*)")
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || path == "internal/cli" || path == "test") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || path == "main.go" {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		allowed := flagWordsAllowed[filepath.ToSlash(path)]
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range flagWord.FindAllStringSubmatch(s, -1) {
				if ours[m[1]] && slices.Contains(allowed, m[1]) {
					used[filepath.ToSlash(path)+" "+m[1]] = true
				} else if ours[m[1]] {
					t.Errorf("%s: %s in %q: a library says what is wrong in its own words, the CLI the flag (internal/cli/flagwords.go, explain.Command)",
						fset.Position(lit.Pos()), m[1], s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for file, flags := range flagWordsAllowed {
		for _, flag := range flags {
			if !used[file+" "+flag] {
				t.Errorf("flagWordsAllowed allows %s in %s, which no longer says it: drop it", flag, file)
			}
		}
	}
}

// cliFlags are the flags of every command of the CLI, long and short, but
// kubectl's own (ConfigFlags), which a kubectl command says too.
func cliFlags(t *testing.T) map[string]bool {
	t.Helper()
	kubectl := pflag.NewFlagSet("kubectl", pflag.ContinueOnError)
	genericclioptions.NewConfigFlags(true).AddFlags(kubectl)
	ours := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, set := range []*pflag.FlagSet{c.Flags(), c.PersistentFlags()} {
			set.VisitAll(func(f *pflag.Flag) {
				if kubectl.Lookup(f.Name) != nil {
					return
				}
				ours["--"+f.Name] = true
				if f.Shorthand != "" {
					ours["-"+f.Shorthand] = true
				}
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(cli.NewRootCommand(genericiooptions.NewTestIOStreamsDiscard()))
	if !ours["--from-logs"] || ours["--context"] || ours["-n"] {
		t.Fatalf("the CLI's own flags are not what they were: %v", ours)
	}
	return ours
}
