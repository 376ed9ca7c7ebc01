package localcluster

import (
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// NewEnvironment returns envtest's etcd and kube-apiserver from assets (a
// directory hack/k8s-bin.sh printed), with the flags a port-forward to a kwok
// node on loopback needs and the given CRDs to install; Start starts it.
func NewEnvironment(assets string, crds ...*apiextensionsv1.CustomResourceDefinition) *envtest.Environment {
	env := &envtest.Environment{
		BinaryAssetsDirectory:    assets,
		CRDInstallOptions:        envtest.CRDInstallOptions{CRDs: crds},
		ControlPlaneStartTimeout: 2 * time.Minute,
		ControlPlaneStopTimeout:  time.Minute,
	}
	env.ControlPlane.GetAPIServer().Configure().
		// The node (kwok) is on loopback and has only an InternalIP.
		Set("advertise-address", "127.0.0.1").
		Set("endpoint-reconciler-type", "none").
		Set("kubelet-preferred-address-types", "InternalIP").
		// envtest turns the ServiceAccount admission plugin off (no
		// serviceaccount controller makes the "default" ones); the
		// missing-ServiceAccount case of the e2e tier needs it to refuse a
		// pod. Its service-account-key-file and -signing-key-file flags,
		// which the plugin's projected token volume needs, are envtest's
		// defaults. Workload.Create makes the namespace's "default"
		// ServiceAccount (DefaultServiceAccount).
		Disable("disable-admission-plugins")
	return env
}
