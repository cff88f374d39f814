#!/usr/bin/env bash
# Known-answer vectors for X-Svc-Signature, computed with OpenSSL rather than with the code under test:
#   signature = "sha256=" + hex(HMAC-SHA256(key = UTF-8 bytes of the secret, msg = "<ts>.<nonce>.<body>"))
# Run from anywhere: it writes vectors.json beside this script (commit both).
# Needs bash, openssl and jq. Bodies and secrets are written in UTF-8 (emoji, accents, CJK) on purpose.
set -euo pipefail
export LC_ALL=C.UTF-8
here="$(cd "$(dirname "$0")" && pwd)"

secrets=(
  "whsec_3f9a1c0e7b5d4a2f8e6c1b0a9d8f7e6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e"
  "clé-secrète-🔑-秘密"
  "a-long-secret-longer-than-the-64-byte-sha256-block-so-hmac-hashes-the-key-first-0123456789"
)

ascii_body='{"eventType":"tweet.new","schemaVersion":1,"deliveryId":"dlv_01","streamEventId":"evt_01","occurredAt":"2026-04-29T12:00:00.000Z","username":"xsvc","data":{"id":"1790000000000000001","text":"hello world","author":{"id":"42","userName":"xsvc","name":"X Svc"},"isRetweet":false,"isReply":false,"isQuote":false,"createdAt":"2026-04-29T12:00:00.000Z"}}'
utf8_body='{"eventType":"tweet.new","schemaVersion":1,"deliveryId":"dlv_02","streamEventId":"evt_02","occurredAt":"2026-04-29T12:00:01.000Z","data":{"text":"🎉 café 你好 — naïve façade 👩‍👩‍👧 𝄞"}}'
test_body='{"eventType":"webhook.test","data":{"message":"Test delivery from xsvc 🎉"},"timestamp":"2026-04-29T12:00:00.000Z"}'
empty_body=''

# A body of exactly 1024 bytes: a JSON object padded with "x" inside a string field.
head='{"eventType":"tweet.new","schemaVersion":1,"deliveryId":"dlv_1k","streamEventId":"evt_1k","occurredAt":"2026-04-29T12:00:02.000Z","data":{"text":"'
tail='"}}'
pad_len=$((1024 - $(printf '%s%s' "$head" "$tail" | wc -c)))
kib_body="$head$(printf 'x%.0s' $(seq 1 "$pad_len"))$tail"
[ "$(printf '%s' "$kib_body" | wc -c)" -eq 1024 ] || { echo "1 KiB body has the wrong size" >&2; exit 1; }

names=(ascii utf8 webhook-test empty 1kib)
bodies=("$ascii_body" "$utf8_body" "$test_body" "$empty_body" "$kib_body")
timestamps=(1777464000000 1777464001234 1777464002000 1777464003999 1777464004000)
nonces=(
  "0123456789abcdef0123456789abcdef"
  "f0e1d2c3b4a5968778695a4b3c2d1e0f"
  "00000000000000000000000000000000"
  "ffffffffffffffffffffffffffffffff"
  "9b2f4c6e8a0d1f3b5c7e9a1b3d5f7a9c"
)

entries=()
for s in "${!secrets[@]}"; do
  for i in "${!names[@]}"; do
    secret="${secrets[$s]}"
    msg="${timestamps[$i]}.${nonces[$i]}.${bodies[$i]}"
    mac="$(printf '%s' "$msg" | openssl dgst -sha256 -hmac "$secret" | awk '{print $NF}')"
    entries+=("$(jq -n \
      --arg name "${names[$i]}/secret-$s" --arg secret "$secret" --arg ts "${timestamps[$i]}" \
      --arg nonce "${nonces[$i]}" --arg body "${bodies[$i]}" --arg sig "sha256=$mac" \
      --argjson bytes "$(printf '%s' "${bodies[$i]}" | wc -c)" \
      '{name: $name, secret: $secret, timestamp: $ts, nonce: $nonce, body: $body, bodyBytes: $bytes, signature: $sig}')")
  done
done

printf '%s\n' "${entries[@]}" | jq -s '{
  generator: "test/vectors/gen.sh (openssl dgst -sha256 -hmac)",
  message: "<timestamp>.<nonce>.<body>",
  vectors: .
}' > "$here/vectors.json"
echo "wrote $here/vectors.json ($(jq '.vectors | length' "$here/vectors.json") vectors)" >&2
