package cli

import (
	"os"
)

// requester is who a forget says is asking: the kubeconfig's user for the
// context in use (--user and --context respected) when attaching through the
// API server, otherwise $USER. The endpoint records it marked unverified
// unless it authenticated the request itself (the metrics server's filter).
func (o *attachOptions) requester() string {
	if cf := o.configFlags; cf != nil && o.addr == "" {
		if cf.AuthInfoName != nil && *cf.AuthInfoName != "" {
			return *cf.AuthInfoName
		}
		if raw, err := cf.ToRawKubeConfigLoader().RawConfig(); err == nil {
			name := raw.CurrentContext
			if cf.Context != nil && *cf.Context != "" {
				name = *cf.Context
			}
			if c, ok := raw.Contexts[name]; ok && c.AuthInfo != "" {
				return c.AuthInfo
			}
		}
	}
	return os.Getenv("USER")
}
