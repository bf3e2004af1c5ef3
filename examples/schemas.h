/*
 * schemas.h — the three workloads of the typed-decoding benchmark as plain C
 * structs, each described once by a jet field table (section 13 of jet.h).
 * Shared by the examples, the tests, the fuzz targets and jet-bench.
 *
 *   TwitterStats  twitter.json: per status id, text, created_at, counts,
 *                 six user fields and the hashtags' texts.
 *   nostr         relay messages: ShortEvent (3 fields), FullEvent, and the
 *                 Envelope, a tagged union over the message's first element.
 *   ApiResponse   the Scala seed's model: user, orders with a sealed-trait
 *                 status (circe's external encoding), requestId, timestamp.
 *
 * Strings are jet_str views (into the input, or the cursor's scratch when
 * escaped); arrays come from the caller's arena.
 */
#ifndef JET_EXAMPLES_SCHEMAS_H
#define JET_EXAMPLES_SCHEMAS_H

#include <jet.h>

#include <stddef.h>
#include <stdint.h>

/* Every translation unit uses only some of the tables below. */
#if defined(__GNUC__) || defined(__clang__)
#define SCHEMA static __attribute__((unused))
#else
#define SCHEMA static
#endif

/* ------------------------------------------------------------- twitter -- */

typedef struct TwUser {
    uint64_t id;
    jet_str screen_name, name;
    uint64_t followers_count, friends_count;
    bool verified;
} TwUser;

typedef struct TwHashtag {
    jet_str text;
} TwHashtag;

typedef struct TwEntities {
    TwHashtag *hashtags;
    size_t hashtag_count;
} TwEntities;

typedef struct TwStatus {
    uint64_t id;
    jet_str text, created_at;
    uint64_t retweet_count, favorite_count;
    TwUser user;
    TwEntities entities;
} TwStatus;

typedef struct TwTimeline {
    TwStatus *statuses;
    size_t status_count;
} TwTimeline;

SCHEMA const jet_field tw_user_fields[] = {
    JET_F_UINT(TwUser, id, "id"),
    JET_F_STR(TwUser, screen_name, "screen_name"),
    JET_F_STR(TwUser, name, "name"),
    JET_F_UINT(TwUser, followers_count, "followers_count"),
    JET_F_UINT(TwUser, friends_count, "friends_count"),
    JET_F_BOOL(TwUser, verified, "verified"),
};
SCHEMA jet_struct tw_user_type = JET_STRUCT(TwUser, tw_user_fields);

SCHEMA const jet_field tw_hashtag_fields[] = {
    JET_F_STR(TwHashtag, text, "text"),
};
SCHEMA jet_struct tw_hashtag_type = JET_STRUCT(TwHashtag, tw_hashtag_fields);
SCHEMA const jet_field tw_hashtag_elem = JET_ELEM(TwHashtag, JET_K_STRUCT, &tw_hashtag_type);

SCHEMA const jet_field tw_entities_fields[] = {
    JET_F_ARRAY(TwEntities, hashtags, hashtag_count, "hashtags", tw_hashtag_elem),
};
SCHEMA jet_struct tw_entities_type = JET_STRUCT(TwEntities, tw_entities_fields);

SCHEMA const jet_field tw_status_fields[] = {
    JET_F_UINT(TwStatus, id, "id"),
    JET_F_STR(TwStatus, text, "text"),
    JET_F_STR(TwStatus, created_at, "created_at"),
    JET_F_UINT(TwStatus, retweet_count, "retweet_count"),
    JET_F_UINT(TwStatus, favorite_count, "favorite_count"),
    JET_F_STRUCT(TwStatus, user, "user", tw_user_type),
    JET_F_STRUCT(TwStatus, entities, "entities", tw_entities_type),
};
SCHEMA jet_struct tw_status_type = JET_STRUCT(TwStatus, tw_status_fields);
SCHEMA const jet_field tw_status_elem = JET_ELEM(TwStatus, JET_K_STRUCT, &tw_status_type);

SCHEMA const jet_field tw_timeline_fields[] = {
    JET_F_ARRAY(TwTimeline, statuses, status_count, "statuses", tw_status_elem),
};
SCHEMA jet_struct tw_timeline_type = JET_STRUCT(TwTimeline, tw_timeline_fields);

/* --------------------------------------------------------------- nostr -- */

typedef struct NostrShortEvent {
    uint64_t created_at;
    jet_str content, pubkey;
} NostrShortEvent;

typedef struct NostrTag {
    jet_str *items;
    size_t count;
} NostrTag;

typedef struct NostrEvent {
    jet_str id, pubkey;
    uint64_t created_at;
    uint32_t kind;
    NostrTag *tags;
    size_t tag_count;
    jet_str content, sig;
} NostrEvent;

/* The relay messages, each read by position after its tag. */
typedef struct NostrEventMsg {
    jet_str sub_id;
    NostrEvent event;
} NostrEventMsg;
typedef struct NostrEoseMsg {
    jet_str sub_id;
} NostrEoseMsg;
typedef struct NostrOkMsg {
    jet_str event_id;
    bool accepted;
    jet_str message;
} NostrOkMsg;
typedef struct NostrNoticeMsg {
    jet_str message;
} NostrNoticeMsg;

enum { NOSTR_EVENT = 0, NOSTR_EOSE = 1, NOSTR_OK = 2, NOSTR_NOTICE = 3 };

typedef struct NostrEnvelope {
    int32_t type; /* NOSTR_* */
    union {
        NostrEventMsg event;
        NostrEoseMsg eose;
        NostrOkMsg ok;
        NostrNoticeMsg notice;
    } as;
} NostrEnvelope;

/* The envelope as the whole message: {"msg": ...} is not how it arrives,
 * so NostrMessage wraps it for jet_decode's struct-shaped root. */
typedef struct NostrMessage {
    NostrEnvelope env;
} NostrMessage;

SCHEMA const jet_field nostr_short_fields[] = {
    JET_F_UINT(NostrShortEvent, created_at, "created_at"),
    JET_F_STR(NostrShortEvent, content, "content"),
    JET_F_STR(NostrShortEvent, pubkey, "pubkey"),
};
SCHEMA jet_struct nostr_short_type = JET_STRUCT(NostrShortEvent, nostr_short_fields);

SCHEMA const jet_field nostr_str_elem = JET_ELEM(jet_str, JET_K_STR, NULL);
SCHEMA const jet_field nostr_tag_elem = JET_ELEM_ARRAY(NostrTag, items, count, nostr_str_elem);

SCHEMA const jet_field nostr_event_fields[] = {
    JET_F_STR(NostrEvent, id, "id"),
    JET_F_STR(NostrEvent, pubkey, "pubkey"),
    JET_F_UINT(NostrEvent, created_at, "created_at"),
    JET_F_UINT(NostrEvent, kind, "kind"),
    JET_F_ARRAY(NostrEvent, tags, tag_count, "tags", nostr_tag_elem),
    JET_F_STR(NostrEvent, content, "content"),
    JET_F_STR(NostrEvent, sig, "sig"),
};
SCHEMA jet_struct nostr_event_type = JET_STRUCT(NostrEvent, nostr_event_fields);

SCHEMA const jet_field nostr_event_msg_fields[] = {
    JET_F_STR(NostrEventMsg, sub_id, NULL),
    JET_F_STRUCT(NostrEventMsg, event, NULL, nostr_event_type),
};
SCHEMA jet_struct nostr_event_msg_type = JET_STRUCT_TUPLE(NostrEventMsg, nostr_event_msg_fields);
SCHEMA const jet_field nostr_eose_msg_fields[] = {
    JET_F_STR(NostrEoseMsg, sub_id, NULL),
};
SCHEMA jet_struct nostr_eose_msg_type = JET_STRUCT_TUPLE(NostrEoseMsg, nostr_eose_msg_fields);
SCHEMA const jet_field nostr_ok_msg_fields[] = {
    JET_F_STR(NostrOkMsg, event_id, NULL),
    JET_F_BOOL(NostrOkMsg, accepted, NULL),
    /* relays sometimes leave the message out: ["OK", id, true] */
    JET_FIELD_F(NostrOkMsg, message, NULL, JET_K_STR, NULL, JET_FIELD_OPTIONAL),
};
SCHEMA jet_struct nostr_ok_msg_type = JET_STRUCT_TUPLE(NostrOkMsg, nostr_ok_msg_fields);
SCHEMA const jet_field nostr_notice_msg_fields[] = {
    JET_F_STR(NostrNoticeMsg, message, NULL),
};
SCHEMA jet_struct nostr_notice_msg_type = JET_STRUCT_TUPLE(NostrNoticeMsg, nostr_notice_msg_fields);

SCHEMA const char *const nostr_envelope_names[] = {"EVENT", "EOSE", "OK", "NOTICE"};
SCHEMA jet_struct *const nostr_envelope_variants[] = {
    &nostr_event_msg_type, &nostr_eose_msg_type, &nostr_ok_msg_type, &nostr_notice_msg_type};
SCHEMA const jet_union nostr_envelope_union = {
    JET_UNION_ARRAY, NULL, (uint32_t)offsetof(NostrEnvelope, type),
    (uint32_t)offsetof(NostrEnvelope, as), 4, nostr_envelope_names, nostr_envelope_variants};

/* A JET_K_UNION field with a NULL key at the root of jet_decode: the
 * message itself is the union (the root is not an object). */
SCHEMA const jet_field nostr_message_fields[] = {
    JET_F_UNION(NostrMessage, env, NULL, nostr_envelope_union),
};
SCHEMA jet_struct nostr_message_type = JET_STRUCT(NostrMessage, nostr_message_fields);

/* --------------------------------------------------------- ApiResponse -- */

typedef struct ApiAddress {
    jet_str street, city, state, zip, country;
} ApiAddress;

typedef struct ApiUser {
    int64_t id;
    jet_str name, email;
    int32_t age;
    bool active;
    ApiAddress address;
    jet_str *tags;
    size_t tag_count;
    bool has_phone;
    jet_str phone;
    bool has_bio;
    jet_str bio;
} ApiUser;

typedef struct ApiItem {
    jet_str sku, name;
    int32_t quantity;
    double price;
} ApiItem;

typedef struct ApiDelivered {
    int64_t deliveredAt;
} ApiDelivered;
typedef struct ApiShipped {
    jet_str trackingNumber, carrier;
} ApiShipped;
typedef struct ApiProcessing {
    int32_t estimatedDays;
} ApiProcessing;

enum { API_DELIVERED = 0, API_SHIPPED = 1, API_PROCESSING = 2 };

typedef struct ApiStatus {
    int32_t tag; /* API_* */
    union {
        ApiDelivered delivered;
        ApiShipped shipped;
        ApiProcessing processing;
    } as;
} ApiStatus;

typedef struct ApiOrder {
    int64_t id;
    ApiItem *items;
    size_t item_count;
    ApiStatus status;
} ApiOrder;

typedef struct ApiResponse {
    ApiUser user;
    ApiOrder *orders;
    size_t order_count;
    jet_str requestId;
    int64_t timestamp;
} ApiResponse;

SCHEMA const jet_field api_address_fields[] = {
    JET_F_STR(ApiAddress, street, "street"),
    JET_F_STR(ApiAddress, city, "city"),
    JET_F_STR(ApiAddress, state, "state"),
    JET_F_STR(ApiAddress, zip, "zip"),
    JET_F_STR(ApiAddress, country, "country"),
};
SCHEMA jet_struct api_address_type = JET_STRUCT(ApiAddress, api_address_fields);
SCHEMA const jet_field api_str_elem = JET_ELEM(jet_str, JET_K_STR, NULL);

SCHEMA const jet_field api_user_fields[] = {
    JET_F_INT(ApiUser, id, "id"),
    JET_F_STR(ApiUser, name, "name"),
    JET_F_STR(ApiUser, email, "email"),
    JET_F_INT(ApiUser, age, "age"),
    JET_F_BOOL(ApiUser, active, "active"),
    JET_F_STRUCT(ApiUser, address, "address", api_address_type),
    JET_F_ARRAY(ApiUser, tags, tag_count, "tags", api_str_elem),
    /* Option[String]: absent or null is None */
    JET_FIELD_FULL(ApiUser, phone, "phone", NULL, JET_K_STR, JET_FIELD_OPTIONAL | JET_FIELD_NULLABLE,
                   JET_NO_OFFSET, (uint32_t)offsetof(ApiUser, has_phone), NULL),
    JET_FIELD_FULL(ApiUser, bio, "bio", NULL, JET_K_STR, JET_FIELD_OPTIONAL | JET_FIELD_NULLABLE,
                   JET_NO_OFFSET, (uint32_t)offsetof(ApiUser, has_bio), NULL),
};
SCHEMA jet_struct api_user_type = JET_STRUCT(ApiUser, api_user_fields);

SCHEMA const jet_field api_item_fields[] = {
    JET_F_STR(ApiItem, sku, "sku"),
    JET_F_STR(ApiItem, name, "name"),
    JET_F_INT(ApiItem, quantity, "quantity"),
    JET_F_F64(ApiItem, price, "price"),
};
SCHEMA jet_struct api_item_type = JET_STRUCT(ApiItem, api_item_fields);
SCHEMA const jet_field api_item_elem = JET_ELEM(ApiItem, JET_K_STRUCT, &api_item_type);

SCHEMA const jet_field api_delivered_fields[] = {
    JET_F_INT(ApiDelivered, deliveredAt, "deliveredAt"),
};
SCHEMA jet_struct api_delivered_type = JET_STRUCT(ApiDelivered, api_delivered_fields);
SCHEMA const jet_field api_shipped_fields[] = {
    JET_F_STR(ApiShipped, trackingNumber, "trackingNumber"),
    JET_F_STR(ApiShipped, carrier, "carrier"),
};
SCHEMA jet_struct api_shipped_type = JET_STRUCT(ApiShipped, api_shipped_fields);
SCHEMA const jet_field api_processing_fields[] = {
    JET_F_INT(ApiProcessing, estimatedDays, "estimatedDays"),
};
SCHEMA jet_struct api_processing_type = JET_STRUCT(ApiProcessing, api_processing_fields);

SCHEMA const char *const api_status_names[] = {"Delivered", "Shipped", "Processing"};
SCHEMA jet_struct *const api_status_variants[] = {&api_delivered_type, &api_shipped_type,
                                                   &api_processing_type};
SCHEMA const jet_union api_status_union = {
    JET_UNION_EXTERNAL, NULL, (uint32_t)offsetof(ApiStatus, tag), (uint32_t)offsetof(ApiStatus, as),
    3, api_status_names, api_status_variants};

SCHEMA const jet_field api_order_fields[] = {
    JET_F_INT(ApiOrder, id, "id"),
    JET_F_ARRAY(ApiOrder, items, item_count, "items", api_item_elem),
    JET_F_UNION(ApiOrder, status, "status", api_status_union),
};
SCHEMA jet_struct api_order_type = JET_STRUCT(ApiOrder, api_order_fields);
SCHEMA const jet_field api_order_elem = JET_ELEM(ApiOrder, JET_K_STRUCT, &api_order_type);

SCHEMA const jet_field api_response_fields[] = {
    JET_F_STRUCT(ApiResponse, user, "user", api_user_type),
    JET_F_ARRAY(ApiResponse, orders, order_count, "orders", api_order_elem),
    JET_F_STR(ApiResponse, requestId, "requestId"),
    JET_F_INT(ApiResponse, timestamp, "timestamp"),
};
SCHEMA jet_struct api_response_type = JET_STRUCT(ApiResponse, api_response_fields);

#endif
