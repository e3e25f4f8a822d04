#!/usr/bin/env bash
# Every test, as README.md's quick start gives it: the server package, then the SDK (whose end-to-end tests run the
# limen-server binary the first step built).
#
# The server's suites that talk to other processes over real sockets (Chromium, glewlwyd, the SMTP and webhook peers,
# live servers, connection timeouts) run in a second process after the rest: run together, seven hundred tests on two
# cores starve those peers' answers past their timeouts. Every suite runs exactly once: the second step's --filter is
# the first step's --skip.
set -euo pipefail
cd "$(dirname "$0")/.."

peer_suites='AppleSignInKitClientTests|ChromiumPeerTests|ConnectionTimeoutTests|DeviceLiveTests|EmailCodeFlowTests'
peer_suites+='|EmailCodeMessageTests|EmailLinkPageTests|FlowPageRuleTests|FlowPageTests|LiveServerTests|MailTemplateTests'
peer_suites+='|MailTimingTests|MailerTests|SignInFormTests|SignInLimitsTests|SignUpFlowTests|ThirdPartyClientTests'
peer_suites+='|UpstreamGlewlwydTests|WebhookMailerTests'

swift test --package-path Server --skip "$peer_suites"
swift test --package-path Server --skip-build --filter "$peer_suites"
swift test
