package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/cobra"
	"golang.org/x/term"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// ForgetOptions are the options of `kubectl backoff forget`.
type ForgetOptions struct {
	attachOptions
	genericiooptions.IOStreams

	Controller string
	All        bool
	States     []string
	Filter     string
	Requeue    bool
	Spread     time.Duration
	DryRun     bool
	Yes        bool
	Output     string
	Reason     string

	// user is who the request says is asking (see requester).
	user string

	keys []string
	// keysOf is the KEYs by controller, found when --controller is not given.
	keysOf map[string][]string
	output *outputFlags
	// isTerminal says whether In is a terminal; tests replace it.
	isTerminal func(io.Reader) bool
	// confirmed is whether the user answered the confirmation, which said
	// how many keys fail on a permanent error: not warned of again.
	confirmed bool
}

// NewForgetCommand returns `kubectl backoff forget [TARGET] KEY... | --all`.
func NewForgetCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := &ForgetOptions{attachOptions: newAttachOptions(cf), IOStreams: streams, isTerminal: isTerminal}
	o.waitNote = streams.ErrOut // "waiting for ADDR…": see waitingTransport
	o.output = newOutputFlags(&o.Output, "forgotten")
	cmd := &cobra.Command{
		Use:   "forget [TARGET] (KEY... | --all)",
		Short: "Reset the backoff of keys, and optionally retry them now",
		Long: `Reset the backoff of keys: their failure counters go back to zero, so the next
failure waits the base delay again. With --requeue the keys are also retried now
(this needs the instrumented queue); a bulk retry is spread over --spread so that
a fleet of keys does not hit a recovering dependency at once.

Bulk forgets (--all) ask for confirmation on a terminal; --yes skips it.

Over several controllers every one is asked even when another fails: what was
forgotten is printed, then the command fails naming each controller that did not.`,
		Example: `  # Retry one stuck key now
  kubectl backoff forget deploy/my-controller default/my-widget --requeue

  # After an outage: retry every key that failed with 503, over two minutes
  kubectl backoff forget deploy/my-controller --all --state backoff -q "503" --requeue --spread 2m

  # Say why: recorded with the reset and shown by kubectl describe on the object
  kubectl backoff forget deploy/my-controller default/my-widget --requeue --reason "dependency restored"

  # What would be forgotten?
  kubectl backoff forget deploy/my-controller --all --state backoff --dry-run

  # Names that get -o name prints are taken back. get lists 100 keys unless --limit
  # says more (at most 1000), and says on stderr when it left keys out:
  #   kubectl backoff get deploy/my-controller --state backoff --limit 1000 -o name | xargs kubectl backoff forget deploy/my-controller
  # (forget --all --state backoff forgets every such key, with no limit, in one request)
  kubectl backoff forget deploy/my-controller key/default/my-widget`,
		RunE: runE(o),
	}
	o.addFlags(cmd.Flags())
	f := cmd.Flags()
	f.StringVar(&o.Controller, "controller", o.Controller, "Controller of the keys: "+controllerOfKeys+"; --all without it forgets in every controller")
	f.BoolVar(&o.All, "all", o.All, "Forget every key that matches --state and --filter (all keys if neither is given)")
	f.StringSliceVar(&o.States, "state", o.States, "With --all: only keys in these states: "+api.StateNames())
	f.StringVarP(&o.Filter, "filter", "q", o.Filter, "With --all: only keys whose name or last error contains this (~ for a regular expression)")
	f.BoolVar(&o.Requeue, "requeue", o.Requeue, "Also retry the keys now")
	f.DurationVar(&o.Spread, "spread", o.Spread, "With --requeue on several keys: release them evenly over this long (at most 1h)")
	f.BoolVar(&o.DryRun, "dry-run", o.DryRun, "List what would be forgotten; change nothing")
	f.BoolVarP(&o.Yes, "yes", "y", o.Yes, "Do not ask for confirmation")
	f.StringVar(&o.Reason, "reason", o.Reason, "Why: recorded in the key's history, the controller's log and an Event on the object (e.g. \"dependency restored\")")
	o.output.addFlags(cmd)
	return cmd
}

// Complete takes the target and keys from args, and resolves the printer
// and, without --addr, kubeconfig and the namespace.
func (o *ForgetOptions) Complete(args []string) error {
	rest, err := o.completeTarget(args)
	if err != nil {
		return err
	}
	o.keys = keyArgs(rest)
	o.completeCluster(true)
	o.user = o.requester()
	return o.output.complete()
}

// Validate checks the flags, naming the one at fault.
func (o *ForgetOptions) Validate() error {
	switch {
	case len(o.keys) == 0 && !o.All:
		return fmt.Errorf("name the KEYs to forget, or use --all (with --state/--filter to narrow it)")
	case len(o.keys) > 0 && o.All:
		return fmt.Errorf("give KEYs or --all, not both")
	case slices.Contains(o.keys, "-"):
		// kubectl's - is stdin; forget reads no KEYs there (they would be
		// looked up as the key "-").
		return fmt.Errorf("forget takes its KEYs as arguments, not - (stdin): pipe them through xargs, e.g. kubectl backoff get TARGET --state failed -o name | xargs kubectl backoff forget TARGET")
	case !o.All && (o.Filter != "" || len(o.States) > 0):
		return fmt.Errorf("--filter and --state select keys for --all; add --all or name the KEYs")
	case o.Spread < 0 || o.Spread > api.MaxSpread:
		return fmt.Errorf("--spread %v: must be between 0 and %s", o.Spread, text.FormatDuration(api.MaxSpread))
	case o.Spread > 0 && !o.Requeue:
		return fmt.Errorf("--spread spaces out retries: it needs --requeue")
	case len(o.Reason) > api.MaxReasonBytes:
		return fmt.Errorf("--reason is %d bytes: at most %d", len(o.Reason), api.MaxReasonBytes)
	case strings.ContainsFunc(o.Reason, unicode.IsControl):
		return fmt.Errorf("--reason must be one line of text, without control characters")
	}
	if err := validateSelection(o.States, o.Filter); err != nil {
		return err
	}
	if err := withUnknownState(o.States); err != nil {
		return err // forget is the instrument's alone: no log mode
	}
	return o.attachOptions.validate()
}

func (o *ForgetOptions) request(controller string, dryRun bool) api.ForgetRequest {
	r := api.ForgetRequest{Controller: controller, Requeue: o.Requeue, Spread: metav1.Duration{Duration: o.Spread}, DryRun: dryRun,
		Reason: o.Reason, User: o.user}
	if o.All {
		r.Filter = &api.Filter{Q: o.Filter, States: parseStates(o.States)}
	} else if keys, ok := o.keysOf[controller]; ok {
		r.Keys = keys
	} else {
		r.Keys = o.keys
	}
	return r
}

// controllers is what the forget applies to: the controller named, or — for
// --all without --controller — every controller that accepts forget, as F
// in the UI does.
func (o *ForgetOptions) controllers(ctx context.Context, s *inspector.Session) ([]string, error) {
	if o.Controller != "" {
		return []string{o.Controller}, nil
	}
	if !o.All {
		return o.findKeys(ctx, s)
	}
	ov, err := s.Overview(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, c := range ov.Controllers {
		if c.Capabilities.Forgets() {
			out = append(out, c.Name)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("forget refused: no controller accepts forget (the endpoint is read-only)")
	}
	return out, nil
}

// findKeys finds the controller of each KEY, as describe does without
// --controller: the one that tracks it, or an error naming those that do.
func (o *ForgetOptions) findKeys(ctx context.Context, s *inspector.Session) ([]string, error) {
	o.keysOf = map[string][]string{}
	var names []string
	for _, k := range o.keys {
		c, err := findController(ctx, s, k)
		if err != nil {
			return nil, err
		}
		if _, ok := o.keysOf[c]; !ok {
			names = append(names, c)
		}
		o.keysOf[c] = append(o.keysOf[c], k)
	}
	return names, nil
}

// Run forgets, after confirmation when it is a bulk forget on a terminal.
func (o *ForgetOptions) Run(ctx context.Context) (err error) {
	defer func() { err = o.explainError(err) }()
	s, _, err := o.open(ctx, o.Out)
	if err != nil {
		return err
	}
	defer s.Close()
	names, err := o.controllers(ctx, s)
	if err != nil {
		return err
	}
	if o.All && !o.DryRun && !o.Yes {
		previews, err := s.ForgetEach(ctx, o.requests(names, true))
		if err != nil {
			// Nothing is forgotten yet: the user is not asked to
			// confirm a count that leaves a controller out.
			return o.forgetFailed(ctx, s, names, err, "--all: nothing forgotten; counting the keys to confirm")
		}
		if total(previews) == 0 {
			// Nothing to confirm: said as --yes would, and not an error.
			return o.nothingMatched(previews, len(names))
		}
		if !o.isTerminal(o.In) {
			return fmt.Errorf("--all would forget %s: confirm with --yes (stdin is not a terminal)", text.Plural(total(previews), "key"))
		}
		if !o.confirm(previews) {
			fmt.Fprintln(o.ErrOut, "Nothing forgotten.")
			return nil
		}
		o.confirmed = true
	}
	// Every controller is asked, whatever another answers: what was
	// forgotten is printed, and the error then names each that failed.
	resps, err := s.ForgetEach(ctx, o.requests(names, o.DryRun))
	if len(resps) > 0 {
		if perr := o.printResponses(resps, len(names) > 1); perr != nil {
			return perr
		}
	}
	if err != nil {
		what := "forget"
		if o.DryRun {
			what = "forget --dry-run"
		}
		return o.forgetFailed(ctx, s, names, err, what)
	}
	return nil
}

// requests are the forget requests of names, one per controller.
func (o *ForgetOptions) requests(names []string, dryRun bool) []api.ForgetRequest {
	reqs := make([]api.ForgetRequest, len(names))
	for i, c := range names {
		reqs[i] = o.request(c, dryRun)
	}
	return reqs
}

// forgetFailed words ForgetEach's error. For one controller it is that
// controller's error as it always was (the user named the controller or
// the key); for several, one line per failed controller, each explained
// as a single one would be, under a line saying how many failed: the
// keys printed above were forgotten, and the exit status says the rest
// were not. what says what failed ("forget", "nothing forgotten: …").
func (o *ForgetOptions) forgetFailed(ctx context.Context, s *inspector.Session, names []string, err error, what string) error {
	fs, ok := errors.AsType[inspector.ForgetFailures](err)
	if !ok {
		return err
	}
	if len(names) == 1 && len(fs) == 1 {
		return o.trackedBy(ctx, s, o.Controller, o.keys, forgetError(fs[0].Err))
	}
	lines := []string{fmt.Sprintf("%s failed in %d of %s:", what, len(fs), text.Plural(len(names), "controller"))}
	for _, f := range fs {
		// Explained here, each on its own: Run's explainError would
		// rewrite the whole to the first failure's words.
		lines = append(lines, "  "+f.Controller+": "+o.explainError(forgetError(f.Err)).Error())
	}
	return errors.New(strings.Join(lines, "\n"))
}

func (o *ForgetOptions) confirm(previews []*api.ForgetResponse) bool {
	what, spread := "reset the backoff of", ""
	if o.Requeue {
		what = "reset and retry now"
		if o.Spread > 0 {
			// The spread after the keys it spreads: "retry 3 keys of x,
			// spread over 1m", not a clause between verb and object.
			what, spread = "reset and retry", ", spread over "+text.FormatDuration(o.Spread)
		}
	}
	scope := previews[0].Controller
	if len(previews) > 1 {
		var parts []string // the controllers with keys to forget, as the list after it
		for _, p := range previews {
			if p.Count > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", p.Controller, p.Count))
			}
		}
		scope = fmt.Sprintf("%s (%s)", text.Plural(len(parts), "controller"), strings.Join(parts, ", "))
	}
	scope += spread
	permanent := 0
	for _, p := range previews {
		permanent += p.Permanent
	}
	// As the TUI's dialog: keys failing on a permanent error fail again.
	if p := explain.PermanentAmong(permanent, total(previews), o.Requeue); p != "" {
		scope += ". " + p
	} else {
		scope += "."
	}
	fmt.Fprintf(o.ErrOut, "This will %s %s of %s Continue? [y/N] ", what, text.Plural(total(previews), "key"), scope)
	line, _ := bufio.NewReader(o.In).ReadString('\n')
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes"
}

func forgetError(err error) error {
	if inspector.IsForbidden(err) {
		return fmt.Errorf("forget refused: %w", err)
	}
	return err
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
