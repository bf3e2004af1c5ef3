/*
 * api_sample.h — the ApiResponse sample (the Scala seed's model: one user,
 * 3 orders, 10 items, about 1.4 KB), minified, with each order status in
 * circe's external encoding. jet-bench's api_response dataset, the example
 * and the tests read it from here.
 */
#ifndef JET_EXAMPLES_API_SAMPLE_H
#define JET_EXAMPLES_API_SAMPLE_H

static const char api_sample_json[] =
    "{\"user\":{\"id\":123456789,\"name\":\"Ada Lovelace\",\"email\":\"ada.lovelace@example.com\",\"age\":36,"
    "\"active\":true,\"address\":{\"street\":\"12 St James's Square\",\"city\":\"London\","
    "\"state\":\"Greater London\",\"zip\":\"SW1Y 4JH\",\"country\":\"United Kingdom\"},\"tags\":[\"premium\","
    "\"early-adopter\",\"beta-tester\",\"newsletter\"],\"phone\":\"+44 20 7946 0958\",\"bio\":null},"
    "\"orders\":[{\"id\":1001,\"items\":[{\"sku\":\"SKU-1001-A\",\"name\":\"Wireless Mouse\",\"quantity\":2,"
    "\"price\":24.99},{\"sku\":\"SKU-1001-B\",\"name\":\"USB-C Hub \\\"7-in-1\\\"\",\"quantity\":1,"
    "\"price\":49.5},{\"sku\":\"SKU-1001-C\",\"name\":\"Laptop Stand\",\"quantity\":1,\"price\":35.0},"
    "{\"sku\":\"SKU-1001-D\",\"name\":\"Cable Ties (50 pack)\",\"quantity\":3,\"price\":4.25}],"
    "\"status\":{\"Delivered\":{\"deliveredAt\":1700000000123}}},{\"id\":1002,"
    "\"items\":[{\"sku\":\"SKU-1002-A\",\"name\":\"Mechanical Keyboard\",\"quantity\":1,\"price\":129.0},"
    "{\"sku\":\"SKU-1002-B\",\"name\":\"Keycap Set\",\"quantity\":1,\"price\":39.95},{\"sku\":\"SKU-1002-C\","
    "\"name\":\"Wrist Rest\",\"quantity\":2,\"price\":18.75}],"
    "\"status\":{\"Shipped\":{\"trackingNumber\":\"1Z999AA10123456784\",\"carrier\":\"UPS\"}}},{\"id\":1003,"
    "\"items\":[{\"sku\":\"SKU-1003-A\",\"name\":\"27\\\" Monitor\",\"quantity\":1,\"price\":279.99},"
    "{\"sku\":\"SKU-1003-B\",\"name\":\"HDMI Cable 2m\",\"quantity\":2,\"price\":9.99},{\"sku\":\"SKU-1003-C\","
    "\"name\":\"Screen Cleaner\",\"quantity\":1,\"price\":6.5}],"
    "\"status\":{\"Processing\":{\"estimatedDays\":3}}}],"
    "\"requestId\":\"req-7f3e2a9c-4b1d-4e8a-9c3f-2d6b8e1a5f70\",\"timestamp\":1700000123456}";

/* Bytes of the sample (no NUL). */
#define API_SAMPLE_LEN (sizeof api_sample_json - 1)

#endif
