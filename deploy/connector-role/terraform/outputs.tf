output "role_arn" {
  description = "Paste this ARN into Flowstate to connect."
  value       = aws_iam_role.marketplace_connector.arn
}
