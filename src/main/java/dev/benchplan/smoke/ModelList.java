package dev.benchplan.smoke;

import dev.benchplan.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** The model ids of an OpenAI {@code GET /v1/models} response: {@code {"data": [{"id": ...}]}}. */
final class ModelList {
  private ModelList() {}

  /** The ids, in the server's order. */
  static List<String> parse(byte[] body) throws SmokeFailure {
    String expected =
        "expected an OpenAI model list {\"object\": \"list\", \"data\": [{\"id\": ...}]}";
    JsonNode doc;
    try {
      doc = Json.JSON.readTree(new String(body, StandardCharsets.UTF_8));
    } catch (JacksonException e) {
      throw new SmokeFailure(
          "GET /v1/models: the response is not JSON ("
              + ServerMessage.excerpt(new String(body, StandardCharsets.UTF_8))
              + "); "
              + expected);
    }
    JsonNode data = doc.get("data");
    if (data == null || !data.isArray()) {
      throw new SmokeFailure("GET /v1/models: /data is missing or not an array; " + expected);
    }
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < data.size(); i++) {
      JsonNode id = data.get(i).get("id");
      if (id == null || !id.isString()) {
        throw new SmokeFailure(
            "GET /v1/models: /data/" + i + "/id is missing or not a string; " + expected);
      }
      ids.add(id.asString());
    }
    return ids;
  }
}
