package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/kick"
)

// KickOptions are the options of `kubectl backoff kick`.
type KickOptions struct {
	attachOptions
	genericiooptions.IOStreams

	Controller string
	Kind       string

	fromLogs fromLogsOptions
	keys     []string
	// rest is the cluster the objects live in, as Complete resolved it from
	// kubeconfig, or why it could not (restErr): kick patches them there.
	rest    *rest.Config
	restErr error
}

// kickNeedsCluster is why kick, unlike the other commands, cannot work
// with --addr alone: the endpoint does not change objects, the API server does.
const kickNeedsCluster = "kick needs access to the cluster the objects live in: it patches them there, so that the controller's watch sees a change"

// NewKickCommand returns `kubectl backoff kick [TARGET] KEY...`.
func NewKickCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := &KickOptions{attachOptions: newAttachOptions(cf), IOStreams: streams}
	o.waitNote = streams.ErrOut // "waiting for ADDR…": see waitingTransport
	cmd := &cobra.Command{
		Use:   "kick [TARGET] KEY...",
		Short: "Make the controller reconcile objects now, by touching them",
		Long: `Patch the annotation ` + kick.Annotation + `: <now> on the objects behind KEYs,
so that their watch event makes the controller reconcile them now. It works on
any controller, instrumented or not (with --from-logs), where forget cannot.

What it cannot do:
  - it does not reset the failure count: if the reconcile fails again, the next
    retry waits the next, longer, delay (forget resets it, on an instrumented
    controller);
  - a controller whose watch has a generation-changed predicate ignores
    annotation changes: nothing happens.

It needs access to the cluster the objects live in (kubeconfig; --addr alone
reaches only the controller's endpoint), and the patch verb on the objects: it checks with a SelfSubjectAccessReview
first and patches nothing if any is refused. The objects' kind comes from
--kind, or from what the controller that has each key says (its endpoint, or
with --from-logs the controllerKind/controllerGroup of its log; for
kube-controller-manager's log, its controllers' names, asking the cluster
whether a key of replica_set.go is a ReplicaSet or a ReplicationController).`,
		Example: `  # A controller without the instrument: the kind comes from its log
  kubectl backoff kick deploy/cert-manager -n cert-manager --from-logs team-a/web-tls

  # kube-controller-manager's log: each key's controller and kind are found in it
  kubectl backoff kick --from-logs kcm.log team-quota/web-7655778b6f

  # Say the kind, and nothing is read from the controller
  kubectl backoff kick --kind Certificate.cert-manager.io team-a/web-tls`,
		RunE: runE(o),
	}
	o.addFlags(cmd.Flags())
	o.fromLogs.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Controller, "controller", o.Controller, "Controller of the keys (needed when the process runs several)")
	cmd.Flags().StringVar(&o.Kind, "kind", o.Kind, "Kind of the objects, as KIND.GROUP (Certificate.cert-manager.io; Pod for the core group); default: the controller's")
	return cmd
}

// Complete takes the target and the keys from args.
func (o *KickOptions) Complete(args []string) error {
	rest, err := o.completeTarget(args)
	if err != nil {
		return err
	}
	o.keys = o.fromLogs.complete(rest, &o.attachOptions)
	if len(o.keys) == 0 {
		return fmt.Errorf("kick needs a KEY, e.g. kubectl backoff kick deploy/my-controller default/my-widget")
	}
	o.rest, o.restErr = o.resolveREST()
	return nil
}

// resolveREST reads the cluster from kubeconfig, refusing up front what
// client-go would turn into a dial to localhost:8080.
func (o *KickOptions) resolveREST() (*rest.Config, error) {
	onlyAddr := ""
	if o.addr != "" {
		onlyAddr = " (--addr reaches only the controller's endpoint, not the API server)"
	}
	if o.noCluster() {
		return nil, fmt.Errorf("%s; no cluster is configured: pass --kubeconfig/--context%s", kickNeedsCluster, onlyAddr)
	}
	cfg, err := o.configFlags.ToRESTConfig()
	if err != nil {
		return nil, fmt.Errorf("%s; kubeconfig: %w", kickNeedsCluster, err)
	}
	return cfg, nil
}

// Validate checks the flags.
func (o *KickOptions) Validate() error {
	if o.Kind != "" && schema.ParseGroupKind(o.Kind).Kind == "" {
		return fmt.Errorf("--kind %q: want KIND.GROUP, e.g. Certificate.cert-manager.io", o.Kind)
	}
	if err := o.fromLogs.validate(&o.attachOptions); err != nil {
		return err
	}
	if err := o.attachOptions.validate(); err != nil {
		return err
	}
	return o.restErr
}

// Run kicks the keys and says what it did and did not do.
func (o *KickOptions) Run(ctx context.Context) error {
	cfg := o.rest
	cs, err := cluster.NewClientset(cfg)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	mapper, err := o.configFlags.ToRESTMapper()
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	k := &kick.Kicker{Mapper: mapper, Dynamic: dyn, Reviews: cs.AuthorizationV1().SelfSubjectAccessReviews()}
	targets, err := o.targets(ctx, k)
	if err != nil {
		ns, _, _ := o.configFlags.ToRawKubeConfigLoader().Namespace()
		err = withTypeNameHint(err, mapper, ns)
	}
	var results []kick.Result
	if err == nil {
		results, err = k.KickTargets(ctx, targets)
	}
	for _, r := range results {
		fmt.Fprintf(o.Out, "%s %s kicked (%s=%s)\n", r.Resource, r.Key, kick.Annotation, r.At.UTC().Format("2006-01-02T15:04:05.000Z07:00"))
	}
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		// client-go's own words name the URL twice and not the cause's fix.
		return fmt.Errorf("cannot reach the API server at %s: %s; kick patches the objects through it: check --kubeconfig, --context or --server",
			cfg.Host, netCause(ue.Err))
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(o.ErrOut, "The controller reconciles them on the watch event, unless its watch has a generation-changed predicate "+
		"(then nothing happens). The failure count is not reset: if the reconcile fails, the next retry waits longer.")
	return nil
}

// namedController is the controller named name (--controller): without
// one, each key's is found (kickTargets).
func namedController(ov *inspector.Overview, name, said string) (*api.Controller, error) {
	if c := ov.Controller(name); c != nil {
		return c, nil
	}
	return nil, fmt.Errorf("%s %q: not among %s", said, name, controllerNames(ov))
}

func controllerNames(ov *inspector.Overview) string {
	names := make([]string, len(ov.Controllers))
	for i, c := range ov.Controllers {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}
