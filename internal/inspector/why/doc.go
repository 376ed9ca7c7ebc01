// Package why answers "I changed this object and nothing happened" from the
// object, for any controller: `kubectl backoff why TYPE/NAME`.
//
//	reader := &why.Cluster{REST: cfg, Core: cs}
//	defer reader.Close()
//	asker := &why.Asker{
//		Finder: &why.Finder{Core: cs, Probe: reader.Probe, Logs: reader.ReadLog},
//		Keys:   reader,
//		Events: describe.NewObjectReader(cfg, cs).Events,
//		Kinds:  &why.DiscoveryKinds{Discovery: cs.Discovery()},
//		Graph:  &why.Graph{Dynamic: dyn, Discovery: cs.Discovery()},
//	}
//	ans := asker.Ask(ctx, u, "certificates") // u: the object, as the API server returned it
//	fmt.Println(ans.GenerationLine())        // generation 7, changed 12m0s ago by kubectl-client-side-apply; the controller has observed 6
//	fmt.Println(ans.Summary)                 // InProgress: controller "certificates-issuing" is failing on it: 3 failures logged, next retry in 40s (estimated).
//
// An answer is built in five steps, each from what the cluster already holds:
//
//   - Judge: kstatus (sigs.k8s.io/cli-utils/pkg/kstatus/status) computes
//     Current, InProgress, Failed or Terminating and its message; then the
//     rules kstatus does not read, each said as evidence: a condition's own
//     observedGeneration (Ready=True observed at an older generation is
//     stale), Flux's status.observedGeneration -1 (never reconciled), Cluster
//     API v1beta2's RollingOut/ScalingUp/ScalingDown on kinds without Ready,
//     and an Argo CD Application's sync and health. The rule lives in
//     inspector/objstatus, which describe and the UI's key detail use too.
//
//   - managedFields: the newest entry that touched spec is the change (who,
//     when); the managers of the status subresource are the controllers.
//
//   - Judge also reads what the kind promises (Kinds, from discovery): an
//     object with no status whose kind always gets one (a CRD's status
//     subresource, a Deployment) has not been reconciled, never Current.
//
//   - Finder: the status manager's pods, by the first rule that matches — a
//     Deployment of that name, one with a container of that name, one whose
//     name begins the manager's (cert-manager → cert-manager-certificates-
//     issuing), pods with a container of that name whatever owns them (a
//     static pod: kube-controller-manager-NODE), or an instrumented pod whose
//     endpoint runs a controller of the object's kind; of several, the one
//     whose log names the kind (kubebuilder's shared "manager"); the pods the
//     user named when given. With no status manager (a kind with no status,
//     a controller that writes none) only the instrumented pods are asked. A control-plane manager with no visible
//     pod is a managed control plane, said so; found pods of which none runs
//     are the answer. The rule is kept in the answer; several matches are
//     ambiguous, and said so.
//
//   - KeyReader: the key's backoff from the instrumented endpoint (exact),
//     or from the controller's log (inspector/logs: estimated, or stated
//     where the log says the next retry).
//
//   - Graph.Walk: the chain — spec's *Ref/*Refs and dependsOn resolved
//     through discovery, children by owner references (a built-in's known
//     kinds, a CRD's domain kinds) and what the object lists (Flux's
//     inventory and helmChart, Crossplane's resourceRefs, Argo CD's
//     resources), pods with their states, the APIService a discovery failure
//     names; Cluster API's tree as clusterctl describe builds it (a
//     Cluster's MachineDeployments by its cluster-name label, templates not
//     followed, a Machine's infrastructure waiting for its bootstrap config);
//     bounded (Limits: depth, objects, children, requests, deadline, paged
//     lists), the cut said. The blocker is the deepest node not Current whose
//     own are Current, on each branch; it is answered for in turn.
//
// Asker.List is `why TYPE`: the objects not Current, longest-waiting first;
// `top --for TYPE` shows the same list live.
//
// A read the user may not make is a RefusedError: the permission and what
// the answer needed it for, one line; the answer goes on without it.
package why
