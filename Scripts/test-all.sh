#!/usr/bin/env bash
# Every test, as README.md's quick start gives it: the server package, then the SDK (whose end-to-end tests run the
# limen-server binary the first step built).
#
# The server's suites that talk to other processes over real sockets (Chromium, glewlwyd, the SMTP and webhook peers,
# live servers, connection timeouts) run in a second process after the rest: run together, seven hundred tests on two
# cores starve those peers' answers past their timeouts. Every suite runs exactly once: the second step's --filter is
# the first step's --skip. The SDK's end-to-end suites (against the limen-server binary, glewlwyd, the CLI's processes)
# likewise run after its unit suites, whose stub servers they would otherwise starve.
set -euo pipefail
cd "$(dirname "$0")/.."

peer_suites='AppleSignInKitClientTests|ChromiumPeerTests|ConnectionTimeoutTests|DeviceLiveTests|EmailCodeFlowTests'
peer_suites+='|EmailCodeMessageTests|EmailLinkPageTests|FlowPageRuleTests|FlowPageTests|LiveServerTests|MailTemplateTests'
peer_suites+='|MailTimingTests|MailerTests|SignInFormTests|SignInLimitsTests|SignUpFlowTests|ThirdPartyClientTests'
peer_suites+='|UpstreamGlewlwydTests|WebhookMailerTests|PasskeyPeerTests|DPoPPeerTests|TracingPeerTests'
# Issue 25's fault tests: two nodes behind nginx under load, one node killed, or their own PostgreSQL restarted.
peer_suites+='|NodeKillFaultTests|DatabaseRestartFaultTests'

sdk_end_to_end='LimenServer[A-Za-z]*Tests|GlewlwydEndToEndTests|FlowFormModelServerTests|JoserfcInteropTests'
sdk_end_to_end+='|LimenCLITests\.'

swift test --package-path Server --skip "$peer_suites"
swift test --package-path Server --skip-build --filter "$peer_suites"
swift test --skip "$sdk_end_to_end"
swift test --skip-build --filter "$sdk_end_to_end"
