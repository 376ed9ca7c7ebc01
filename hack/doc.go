// Package hack holds the project's scripts (release.sh, k8s-bin.sh,
// krew-bin.sh) and the tests that run them with stand-ins for the slow
// tools, so that what a script says and writes is checked in seconds.
//
//	hack/release.sh linux/amd64
//
// It has no Go API.
package hack
