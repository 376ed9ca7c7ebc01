package cluster

import (
	"fmt"

	"k8s.io/client-go/discovery"
	appsv1client "k8s.io/client-go/kubernetes/typed/apps/v1"
	authorizationv1client "k8s.io/client-go/kubernetes/typed/authorization/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"
)

// Clientset is the part of client-go's kubernetes.Interface the plugin uses:
// pods, their logs and events (core), workloads (apps), access reviews
// (authorization) and discovery. kubernetes.Interface and its fake satisfy it.
//
// Why not kubernetes.Interface: kubernetes.NewForConfig builds a typed client
// for every API group, and so links every one of them (with their generic
// instantiations and apply configurations) into the binary: 5.2 MB of the
// stripped 60.5 MB, for groups the plugin never calls. NewClientset builds
// these four. A new group is one more method here and in NewClientset.
type Clientset interface {
	CoreV1() corev1client.CoreV1Interface
	AppsV1() appsv1client.AppsV1Interface
	AuthorizationV1() authorizationv1client.AuthorizationV1Interface
	Discovery() discovery.DiscoveryInterfaces
}

// clientset is a Clientset over one HTTP client, as kubernetes.NewForConfig
// shares one between its groups.
type clientset struct {
	core      *corev1client.CoreV1Client
	apps      *appsv1client.AppsV1Client
	authz     *authorizationv1client.AuthorizationV1Client
	discovery *discovery.DiscoveryClient
}

// NewClientset is kubernetes.NewForConfig for the groups Clientset names,
// and like it: the default user agent, one HTTP client and one client-side
// rate limiter (cfg.QPS, cfg.Burst) shared by every group.
func NewClientset(c *rest.Config) (Clientset, error) {
	cfg := *c
	if cfg.UserAgent == "" {
		cfg.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	httpClient, err := rest.HTTPClientFor(&cfg)
	if err != nil {
		return nil, err
	}
	if cfg.RateLimiter == nil && cfg.QPS > 0 {
		if cfg.Burst <= 0 {
			return nil, fmt.Errorf("burst is required to be greater than 0 when RateLimiter is not set and QPS is set to greater than 0")
		}
		cfg.RateLimiter = flowcontrol.NewTokenBucketRateLimiter(cfg.QPS, cfg.Burst)
	}
	var cs clientset
	if cs.core, err = corev1client.NewForConfigAndClient(&cfg, httpClient); err != nil {
		return nil, err
	}
	if cs.apps, err = appsv1client.NewForConfigAndClient(&cfg, httpClient); err != nil {
		return nil, err
	}
	if cs.authz, err = authorizationv1client.NewForConfigAndClient(&cfg, httpClient); err != nil {
		return nil, err
	}
	if cs.discovery, err = discovery.NewDiscoveryClientForConfigAndClient(&cfg, httpClient); err != nil {
		return nil, err
	}
	return &cs, nil
}

func (c *clientset) CoreV1() corev1client.CoreV1Interface { return c.core }
func (c *clientset) AppsV1() appsv1client.AppsV1Interface { return c.apps }
func (c *clientset) AuthorizationV1() authorizationv1client.AuthorizationV1Interface {
	return c.authz
}
func (c *clientset) Discovery() discovery.DiscoveryInterfaces { return c.discovery }
