variable "flowstate_principal_arns" {
  description = "ARNs of the Flowstate roles that assume this role: both <prefix>-<stage>-backend and <prefix>-<stage>-mcp-execution, as shown by Flowstate."
  type        = list(string)
  nullable    = false

  validation {
    condition     = length(var.flowstate_principal_arns) > 0
    error_message = "flowstate_principal_arns must list at least one Flowstate principal ARN (both backend and mcp-execution)."
  }

  # A value rendered from an unset JavaScript variable arrives as the string "undefined".
  validation {
    condition     = !contains(var.flowstate_principal_arns, "undefined") && !contains(var.flowstate_principal_arns, "")
    error_message = "flowstate_principal_arns contains \"undefined\" or an empty string: copy the ARNs shown by Flowstate."
  }
}

variable "external_id" {
  description = "Your tenant's external ID, shown by Flowstate."
  type        = string
  nullable    = false
  sensitive   = true

  # STS accepts 2..1224 characters of [\w+=,.@:/-]. The length is checked apart because RE2
  # (Terraform's regex engine) refuses repeat counts above 1000.
  validation {
    condition     = length(var.external_id) >= 2 && length(var.external_id) <= 1224 && can(regex("^[\\w+=,.@:/-]+$", var.external_id))
    error_message = "external_id must be 2 to 1224 characters: letters, digits and +=,.@:/-_ (the STS ExternalId rule)."
  }
}
