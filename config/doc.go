// Package config holds manifests to apply as they are, and the tests that
// check them: rbac/ has the kubectl-backoff-viewer and
// kubectl-backoff-operator ClusterRoles, samples/ a Deployment of an
// instrumented controller (the demo) with the ServiceAccount and Role it
// runs with.
//
//	kubectl apply -f config/rbac/
//	KO_DOCKER_REPO=... ko apply -f config/samples/
//
// It has no Go API: the files are the product.
package config
