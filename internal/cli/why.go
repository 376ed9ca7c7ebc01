package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/dynamic"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// WhyOptions are the options of `kubectl backoff why`.
type WhyOptions struct {
	configFlags *genericclioptions.ConfigFlags
	genericiooptions.IOStreams

	Filenames           []string
	Selector            string
	AllNamespaces       bool
	ControllerPod       string
	ControllerNamespace string
	Output              string
	// FromLogs is a controller's log the user has (a FILE, or - for
	// stdin), or fromTarget (--from-logs alone): the log of the
	// controller's pods, found as without it. ControllerLog names whose
	// log a FILE is (a status manager) when it is not every object's.
	FromLogs      string
	ControllerLog string
	// Addrs are instrumented endpoints outside the cluster (--addr).
	Addrs []string
	// Watch judges the object again on every change until it is Current.
	Watch bool

	output *outputFlags
	args   []string
	// list is `why TYPE`: the objects of a kind that are not Current.
	list  bool
	given *why.Given
	// newAsker builds the asker over the cluster; tests give their own.
	newAsker func() (*why.Asker, func(), error)
}

// NewWhyCommand returns `kubectl backoff why (TYPE/NAME | TYPE [NAME] | -f FILE | -l SELECTOR)`.
func NewWhyCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	cmd, _ := newWhyCommand(cf, streams)
	return cmd
}

// newWhyCommand is NewWhyCommand with its options, for tests.
func newWhyCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) (*cobra.Command, *WhyOptions) {
	o := &WhyOptions{configFlags: cf, IOStreams: streams}
	o.output = newOutputFlags(&o.Output, "")
	cmd := &cobra.Command{
		Use:   "why (TYPE/NAME | TYPE [NAME] | -f FILE | TYPE -l SELECTOR)",
		Short: "Start from an object: has your change been reconciled, and if not, what its controller is doing about it",
		Long: `Answer "I changed this object and nothing happened" from the object, for any
controller:

  - has the latest change been seen: metadata.generation against
    status.observedGeneration and the conditions, computed by kstatus (the
    library kubectl's own tools use), plus what kstatus does not read: a
    condition's own observedGeneration (a stale Ready), Cluster API v1beta2's
    RollingOut, an Argo CD Application's sync and health, a Crossplane
    resource's Synced=False (its Ready=True hides a failed update), Flux's
    observedGeneration -1 (never reconciled);
  - who changed it and when: the newest managedFields entry that touched spec;
  - which controller owns its status: the manager of the status subresource,
    and its pods (a Deployment or container of that name, or an instrumented
    pod whose controller reconciles the kind; --controller-pod when the search
    is ambiguous). The rule that matched is said;
  - what that controller does with the key: its instrumented endpoint when
    the pods have a port named "backoff" (exact), else its log (estimated, or
    stated where the log says the next retry); and the object's Events;
  - what the object waits for: the chain of its dependencies (spec's *Ref,
    *Refs and dependsOn), its children (owner references; Flux's inventory,
    Crossplane's resourceRefs), their pods, and the APIService a discovery
    failure names, bounded in depth, objects and time (what was cut is said).
    The blocker — the deepest object not Current whose own are Current — is
    marked in the tree and answered for in turn;
  - what to do next.

With a TYPE alone, list the objects of the kind that are not Current, the
longest-waiting change first, one line each with the backoff summary.`,
		Example: `  kubectl backoff why certificate/web-tls -n team-a
  kubectl backoff why kustomizations.kustomize.toolkit.fluxcd.io/apps -n flux-system -o yaml
  kubectl backoff why -f widget.yaml

  # Every Machine that is not Current, longest-waiting first
  kubectl backoff why machines.cluster.x-k8s.io -A

  # The status manager is ambiguous: name the controller's pods
  kubectl backoff why widget/w1 --controller-pod deploy/widget-operator --controller-namespace widget-system`,
		RunE: runE(o),
	}
	f := cmd.Flags()
	f.StringSliceVarP(&o.Filenames, "filename", "f", o.Filenames, "Files naming the objects (as kubectl get -f)")
	f.StringVarP(&o.Selector, "selector", "l", o.Selector, "Label selector of the objects (with a TYPE)")
	f.BoolVarP(&o.AllNamespaces, "all-namespaces", "A", o.AllNamespaces, "Objects in every namespace")
	f.StringVar(&o.ControllerPod, "controller-pod", o.ControllerPod, "The controller's pods, when the search by status manager is ambiguous or wrong: deploy/NAME, sts/NAME or pod/NAME")
	f.StringVar(&o.ControllerNamespace, "controller-namespace", o.ControllerNamespace, "Namespace of --controller-pod (default: the kubeconfig's namespace, or -n)")
	f.StringArrayVar(&o.Addrs, "addr", o.Addrs, "An instrumented controller's endpoint outside the cluster (an operator run with go run): http://127.0.0.1:8082; repeat for its replicas")
	f.StringVar(&o.FromLogs, "from-logs", o.FromLogs, "Read the controllers' backoff from their log: alone, the log of the controller's pods (even instrumented ones, whose endpoint is read otherwise); "+
		"or a FILE, or - for stdin, instead of their pods: a control plane whose pods are not visible")
	f.Lookup("from-logs").NoOptDefVal = fromTarget
	f.StringVar(&o.ControllerLog, "controller-log", o.ControllerLog, "With --from-logs: whose log it is, as managedFields name the controller (kube-controller-manager) or as the log names it (configmap); default: every object's")
	f.BoolVarP(&o.Watch, "watch", "w", o.Watch, "After the answer, judge the object again on every change of it or of its chain, and when the retry it waits for is due, until it is Current; new answers are appended")
	o.output.addFlags(cmd)
	return cmd, o
}

// Complete takes the objects from args and resolves -o and --controller-pod.
func (o *WhyOptions) Complete(args []string) error {
	o.args = o.logFileArg(args)
	args = o.args
	// TYPE alone lists; TYPE -l SELECTOR answers for each object selected.
	o.list = len(args) == 1 && !strings.Contains(args[0], "/") && len(o.Filenames) == 0 && o.Selector == ""
	if o.ControllerPod != "" {
		t, err := cluster.ParseTarget(o.ControllerPod, "")
		if err != nil {
			return fmt.Errorf("--controller-pod: %w", err)
		}
		ns := o.ControllerNamespace
		if ns == "" {
			if ns, _, err = o.configFlags.ToRawKubeConfigLoader().Namespace(); err != nil {
				return fmt.Errorf("kubeconfig: namespace: %w", err)
			}
		}
		o.given = &why.Given{Target: t, Namespace: ns}
	}
	return o.output.complete()
}

// Validate checks the arguments.
func (o *WhyOptions) Validate() error {
	switch {
	case o.ControllerLog != "" && (o.FromLogs == "" || o.FromLogs == fromTarget):
		return fmt.Errorf("--controller-log names whose log --from-logs is: give --from-logs FILE too")
	case len(o.args) == 0 && len(o.Filenames) == 0:
		return fmt.Errorf("why needs an object: TYPE/NAME, TYPE NAME, -f FILE, or TYPE -l SELECTOR (e.g. kubectl backoff why certificate/web-tls)")
	case len(o.args) > 0 && len(o.Filenames) > 0:
		return fmt.Errorf("give objects as TYPE/NAME or with -f FILE, not both")
	case o.Watch && o.FromLogs == "-":
		return fmt.Errorf("--watch reads --from-logs again for each answer: give a file, not - (stdin is read once)")
	case o.Watch && (o.list || o.Selector != "" || len(o.args) > 2):
		return fmt.Errorf("--watch follows one object: give TYPE/NAME (for a list, kubectl backoff top --for TYPE is live)")
	case o.ControllerNamespace != "" && o.ControllerPod == "":
		return fmt.Errorf("--controller-namespace is the namespace of --controller-pod: give --controller-pod too")
	}
	// A file that is not there is said first, as kubectl get -f says it:
	// before, the missing cluster was, and the file after one was set up.
	for _, name := range o.Filenames {
		if name == "-" || strings.Contains(name, "://") {
			continue
		}
		if _, err := os.Stat(name); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("-f: the path %q does not exist", name)
		}
	}
	return nil
}

// Run answers for each object.
func (o *WhyOptions) Run(ctx context.Context) error {
	newAsker, readObjects, local := o.newAsker, o.objects, false
	if newAsker == nil {
		switch {
		case noClusterIn(o.configFlags) && o.fileOnly() && o.Watch:
			return fmt.Errorf("--watch follows the object in the cluster, and no cluster is configured: drop --watch to answer from %s as saved, or pass --kubeconfig/--context",
				strings.Join(o.Filenames, ", "))
		case noClusterIn(o.configFlags) && o.fileOnly():
			newAsker, readObjects, local = o.localAsker, o.localObjects, true
		case noClusterIn(o.configFlags):
			// client-go would dial localhost:8080 and say only that.
			return noClusterErr(o.noClusterRemedy())
		default:
			newAsker = o.clusterAsker
		}
	}
	if o.list {
		asker, done, err := newAsker()
		if err != nil {
			return err
		}
		defer done()
		if asker.Finder != nil {
			if err := givenFound(ctx, asker.Finder.Core, o.given); err != nil {
				return err
			}
		}
		// The list answers from the endpoint or log the user named, as
		// `why TYPE/NAME` does (it read neither, and searched pods instead).
		if err := o.addSources(ctx, asker); err != nil {
			return err
		}
		return o.runList(ctx, asker)
	}
	objects, err := readObjects()
	if err != nil {
		return err
	}
	asker, done, err := newAsker()
	if err != nil {
		return err
	}
	defer done()
	if asker.Finder != nil {
		if err := givenFound(ctx, asker.Finder.Core, o.given); err != nil {
			return err
		}
	}
	if err := o.addSources(ctx, asker); err != nil {
		return err
	}
	if o.Watch {
		if len(objects) != 1 {
			return fmt.Errorf("--watch follows one object; %d were given", len(objects))
		}
		// Each answer of the watch has an asker of its own.
		return o.runWatch(ctx, objects[0], newAsker)
	}
	answers := make([]*why.Answer, 0, len(objects))
	for _, obj := range objects {
		a := asker.Ask(ctx, obj.u, obj.resource)
		if local {
			a.Verdict.Evidence = append([]string{fromFileNote(o.Filenames)}, a.Verdict.Evidence...)
		}
		answers = append(answers, a)
	}
	if !o.output.text() {
		if len(answers) == 1 {
			return o.output.print(o.Out, answers[0], "")
		}
		return o.output.print(o.Out, map[string]any{"items": answers}, "")
	}
	for i, a := range answers {
		if i > 0 {
			fmt.Fprintln(o.Out)
		}
		printAnswer(o.Out, a)
	}
	return nil
}

// addSources adds to asker the sources of backoff the user gave: the log
// file (--from-logs, read again for each asker) and the endpoints (--addr).
func (o *WhyOptions) addSources(ctx context.Context, asker *why.Asker) error {
	var err error
	asker.PodLogs = o.FromLogs == fromTarget
	if o.logFile() {
		if asker.FromLog, err = o.whyLogFile(ctx); err != nil {
			return err
		}
	}
	return o.addDirect(asker)
}

// addDirect adds to asker the endpoints of --addr, if given.
func (o *WhyOptions) addDirect(asker *why.Asker) error {
	if len(o.Addrs) == 0 {
		return nil
	}
	var err error
	asker.Direct, err = o.whyDirect()
	return err
}

// object is one object the builder found, with its plural resource.
type object struct {
	u        *unstructured.Unstructured
	resource string
}

// objects reads the objects with kubectl's resource builder: short names,
// TYPE.GROUP/NAME, -f, -l, -A, -n.
func (o *WhyOptions) objects() ([]object, error) {
	ns, explicit, err := o.configFlags.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: namespace: %w", err)
	}
	r := resource.NewBuilder(o.configFlags).
		Unstructured().
		ContinueOnError().
		NamespaceParam(ns).DefaultNamespace().AllNamespaces(o.AllNamespaces).
		FilenameParam(explicit, &resource.FilenameOptions{Filenames: o.Filenames}).
		LabelSelectorParam(o.Selector).
		ResourceTypeOrNameArgs(true, o.args...).
		Latest().
		Flatten().
		Do()
	infos, err := r.Infos()
	if err != nil {
		return nil, readError(err)
	}
	out := make([]object, 0, len(infos))
	for _, info := range infos {
		u, ok := info.Object.(*unstructured.Unstructured)
		if !ok {
			continue
		}
		res := ""
		if info.Mapping != nil {
			res = info.Mapping.Resource.Resource
		}
		out = append(out, object{u: u, resource: res})
	}
	if len(out) == 0 && !o.list {
		return nil, fmt.Errorf("no objects found for %s", strings.Join(append(o.args, o.Filenames...), " "))
	}
	return out, nil
}

// readError says a refused read of the objects as the permission it needs.
func readError(err error) error {
	var errs []error
	if agg, ok := err.(interface{ Errors() []error }); ok {
		errs = agg.Errors()
	} else {
		errs = []error{err}
	}
	for i, e := range errs {
		var st apierrors.APIStatus
		if !apierrors.IsForbidden(e) || !errors.As(e, &st) {
			continue
		}
		what := "the object's kind"
		if d := st.Status().Details; d != nil && d.Kind != "" {
			what = d.Kind
			if d.Group != "" {
				what += "." + d.Group
			}
		}
		errs[i] = fmt.Errorf("you may not read %s (RBAC): why needs get and list on the kind to read the objects you asked about (the API server said: %s)",
			what, oneLine(st.Status().Message, 200))
	}
	return errors.Join(errs...)
}

// clusterAsker builds the asker over the kubeconfig's cluster.
func (o *WhyOptions) clusterAsker() (*why.Asker, func(), error) {
	asker, reader, err := o.clusterReader()
	if err != nil {
		return nil, nil, err
	}
	return asker, reader.Close, nil
}

// clusterReader builds the asker and the reader of keys it asks through.
func (o *WhyOptions) clusterReader() (*why.Asker, *why.Cluster, error) {
	cfg, err := o.configFlags.ToRESTConfig()
	if err != nil {
		return nil, nil, fmt.Errorf("kubeconfig: %w", err)
	}
	cs, err := cluster.NewClientset(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("kubeconfig: %w", err)
	}
	reader := &why.Cluster{REST: cfg, Core: cs}
	asker := &why.Asker{Finder: &why.Finder{Core: cs, Probe: reader.Probe, Logs: reader.ReadLog}, Keys: reader, Given: o.given,
		Kinds: &why.DiscoveryKinds{Discovery: cs.Discovery()}}
	if dyn, err := dynamic.NewForConfig(cfg); err == nil {
		asker.Graph = &why.Graph{Dynamic: dyn, Discovery: cs.Discovery()}
	}
	if objects := describe.NewObjectReader(cfg, cs); objects != nil {
		asker.Events = objects.Events
	}
	return asker, reader, nil
}
