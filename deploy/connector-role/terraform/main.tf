# The Flowstate connector role (interface.md §2.2, §5). Both policy documents are templates beside
# this file, generated from deploy/connector-role/policies.ts: the CloudFormation template and the
# console guide show the same documents.

data "aws_partition" "current" {}
data "aws_caller_identity" "current" {}
data "aws_region" "current" {}

resource "aws_iam_role" "marketplace_connector" {
  name        = "MarketplaceConnector"
  description = "Lets Flowstate manage AWS Marketplace private offers of this seller account."
  assume_role_policy = templatefile("${path.module}/trust-policy.json.tftpl", {
    principal_arns = var.flowstate_principal_arns
    external_id    = var.external_id
  })

  lifecycle {
    # IAM is global, but the AWS Marketplace Catalog API and Flowstate's calls are in us-east-1:
    # credentials aimed elsewhere usually mean the wrong profile, hence the wrong (seller) account.
    precondition {
      condition     = data.aws_region.current.region == "us-east-1"
      error_message = "Run this module with credentials of the seller account and region us-east-1 (AWS_REGION=us-east-1)."
    }
  }
}

resource "aws_iam_role_policy" "marketplace_catalog_access" {
  name = "MarketplaceCatalogAccess"
  role = aws_iam_role.marketplace_connector.id
  policy = templatefile("${path.module}/marketplace-catalog-access.json.tftpl", {
    partition  = data.aws_partition.current.partition
    account_id = data.aws_caller_identity.current.account_id
  })
}
